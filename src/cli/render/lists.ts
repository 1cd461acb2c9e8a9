// The lists of one kind of item: images, networks, volumes, and the detail routes.
import type { ChalkInstance } from "chalk";
import type { NetworkItem } from "../../core/objects/engine-types.ts";
import type { VolumeItem } from "../../core/objects/volumes.ts";
import type { ImageItem } from "../../core/objects/images.ts";
import { formatBytes, formatLabels, renderTable, shortId, timeAgo } from "./format.ts";

/** `docklens networks`: `docker network ls` plus subnet and creation time. */
export function networksTable(
  networks: NetworkItem[],
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const rows = networks.map((network) => [
    shortId(network.Id),
    network.Name,
    network.Driver,
    network.Scope,
    (network.IPAM?.Config ?? [])
      .map((config) => config.Subnet)
      .filter(Boolean)
      .join(","),
    timeAgo(network.Created, now),
  ]);
  return renderTable(["NETWORK ID", "NAME", "DRIVER", "SCOPE", "SUBNET", "CREATED"], rows, colors);
}

/** `docklens volumes`: `docker volume ls` plus scope, creation time and labels. */
export function volumesTable(
  volumes: VolumeItem[],
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const rows = volumes.map((volume) => [
    volume.Driver,
    volume.Name,
    volume.Scope,
    volume.CreatedAt ? timeAgo(volume.CreatedAt, now) : "",
    formatLabels(volume.Labels),
  ]);
  return renderTable(["DRIVER", "VOLUME NAME", "SCOPE", "CREATED", "LABELS"], rows, colors);
}

/**
 * `docklens images`: docker images's columns (a row per tag; `<none>` for an untagged image) and
 * how many containers use each; a CLUSTER column first when the images come from several.
 */
export function imagesTable(
  images: Array<ImageItem & { cluster?: { name: string } }>,
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const across = images.some((image) => image.cluster);
  const rows = images.flatMap((image) => {
    const tags = image.RepoTags?.filter((tag) => tag !== "<none>:<none>") ?? [];
    return (tags.length ? tags : ["<none>:<none>"]).map((tag) => {
      const colon = tag.lastIndexOf(":");
      const row = [
        tag.slice(0, colon),
        tag.slice(colon + 1),
        shortId(image.Id),
        timeAgo(image.Created, now),
        formatBytes(image.Size),
        String(image.Containers),
      ];
      return across ? [image.cluster?.name ?? "", ...row] : row;
    });
  });
  return renderTable(
    [
      ...(across ? ["CLUSTER"] : []),
      "REPOSITORY",
      "TAG",
      "IMAGE ID",
      "CREATED",
      "SIZE",
      "CONTAINERS",
    ],
    rows,
    colors,
  );
}
