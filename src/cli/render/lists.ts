// The lists of one kind of item: images, networks, volumes, and the detail routes.
import type { ChalkInstance } from "chalk";
import type { NetworkItem } from "../../core/objects/engine-types.ts";
import type { VolumeItem } from "../../core/objects/volumes.ts";
import type { ImageItem } from "../../core/objects/images.ts";
import { familiarReference } from "../../core/objects/references.ts";
import { formatLabels, goTime, humanSize, renderTable, shortId, timeAgo } from "./format.ts";
import { formatRows, type RowKind } from "./formatted.ts";
import type { TemplateData } from "./template-run.ts";

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

/** What `docklens images` shows of the images it was given. */
export interface ImagesView {
  /** docker's `--format`: a template (`{{.Cluster}} {{.Repository}}`), `json`, or `table ...`. */
  format?: string;
  /** One cluster asked (named, or a config's only one): no CLUSTER column, as docker's has none. */
  oneCluster?: boolean;
  /** `--digests`: docker's DIGEST column, a row per digest. */
  digests?: boolean;
}

/** docker images's table with `--digests` (defaultImageTableFormatWithDigest), and CONTAINERS. */
const DIGESTS_TABLE =
  "table {{.Repository}}\t{{.Tag}}\t{{.Digest}}\t{{.ID}}\t{{.CreatedSince}}\t{{.Size}}\t{{.Containers}}";

/**
 * `docklens images`: docker images's columns (a row per tag; `<none>` for an untagged image) and
 * how many containers use each; a CLUSTER column first when the images come from several. With
 * `format`, each row as docker's `--format` prints it (`{{.Cluster}}` besides docker's fields).
 */
export function imagesTable(
  images: Array<ImageItem & { cluster?: { name: string } }>,
  colors: ChalkInstance,
  { format, oneCluster, digests }: ImagesView = {},
  now = Date.now(),
): string {
  const across = !oneCluster && images.some((image) => image.cluster);
  const table = () => imageColumns(images, colors, now, across);
  // With --digests, docker's digest table, or a table template that lacks {{.Digest}} gets it.
  const template =
    digests && (format === undefined || format === "table")
      ? across
        ? DIGESTS_TABLE.replace("table ", "table {{.Cluster}}\t")
        : DIGESTS_TABLE
      : digests && format?.startsWith("table") && !format.includes("{{.Digest}}")
        ? `${format}\t{{.Digest}}`
        : format;
  if (template === undefined) return table();
  const wantsDigest = Boolean(digests) || template.includes("{{.Digest}}");
  const rows = images.flatMap((image) =>
    imageRows(image, wantsDigest).map(([repository, tag, digest]) => ({
      ...imageData(image, now),
      Repository: repository,
      Tag: tag,
      Digest: digest,
      Cluster: image.cluster?.name ?? "",
    })),
  );
  return formatRows(template, rows, IMAGE_KIND, table);
}

/** The fields of docker's image formatter (cli/command/formatter/image.go), and their headers. */
const IMAGE_KIND: RowKind = {
  type: "*formatter.imageContext",
  headers: {
    ID: "IMAGE ID",
    Repository: "REPOSITORY",
    Tag: "TAG",
    Digest: "DIGEST",
    CreatedSince: "CREATED",
    CreatedAt: "CREATED AT",
    Size: "SIZE",
    Containers: "CONTAINERS",
    VirtualSize: "SIZE",
    SharedSize: "SHARED SIZE",
    UniqueSize: "UNIQUE SIZE",
    Cluster: "CLUSTER",
  },
};

/** An image's fields but its repository, tag and digest, as docker's formatter gives them. */
function imageData(image: ImageItem, now: number): TemplateData {
  const size = Number(image.Size);
  const shared = Number(image.SharedSize ?? -1);
  return {
    ID: shortId(image.Id),
    CreatedSince: timeAgo(image.Created, now),
    CreatedAt: goTime(image.Created),
    Size: humanSize(size, 3),
    Containers: image.Containers === -1 ? "N/A" : String(image.Containers),
    VirtualSize: humanSize(size),
    SharedSize: shared === -1 ? "N/A" : humanSize(shared),
    UniqueSize: shared === -1 || size === -1 ? "N/A" : humanSize(size - shared),
  };
}

/**
 * The rows docker lists of an image (imageFormatTaggedAndDigest): a row per tag, by familiar
 * name; a digest per row only when the template shows digests; a row per repository known only
 * by digest; one `<none>` row for a dangling image.
 */
function imageRows(image: ImageItem, wantsDigest: boolean): Array<[string, string, string]> {
  const tags = (image.RepoTags ?? []).filter((tag) => tag !== "<none>:<none>");
  const digests = (image.RepoDigests ?? []).filter((digest) => digest !== "<none>@<none>");
  if (!tags.length && !digests.length) return [["<none>", "<none>", "<none>"]];
  const byRepository = new Map<string, string[]>();
  for (const reference of digests) {
    const at = reference.lastIndexOf("@");
    const repository = familiarReference(reference.slice(0, at));
    byRepository.set(repository, [
      ...(byRepository.get(repository) ?? []),
      reference.slice(at + 1),
    ]);
  }
  const rows: Array<[string, string, string]> = [];
  for (const reference of tags) {
    const colon = reference.lastIndexOf(":");
    const repository = familiarReference(reference.slice(0, colon));
    const tag = reference.slice(colon + 1);
    const shown = wantsDigest ? (byRepository.get(repository) ?? []) : [];
    rows.push(
      ...(shown.length ? shown : ["<none>"]).map((digest): [string, string, string] => [
        repository,
        tag,
        digest,
      ]),
    );
  }
  const tagged = new Set(rows.map(([repository]) => repository));
  for (const [repository, list] of byRepository)
    if (!tagged.has(repository))
      rows.push(
        ...(wantsDigest ? list : [""]).map((digest): [string, string, string] => [
          repository,
          "<none>",
          digest,
        ]),
      );
  return rows;
}

/** The table `docklens images` prints without `--format`. */
function imageColumns(
  images: Array<ImageItem & { cluster?: { name: string } }>,
  colors: ChalkInstance,
  now: number,
  across: boolean,
): string {
  const rows = images.flatMap((image) => {
    const tags = image.RepoTags?.filter((tag) => tag !== "<none>:<none>") ?? [];
    return (tags.length ? tags : ["<none>:<none>"]).map((tag) => {
      const colon = tag.lastIndexOf(":");
      const row = [
        tag.slice(0, colon),
        tag.slice(colon + 1),
        shortId(image.Id),
        timeAgo(image.Created, now),
        humanSize(image.Size, 3),
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
