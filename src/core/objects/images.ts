import {
  acrossClusters,
  shareAcross,
  type AcrossClustersOptions,
  type ClusterError,
  type ClusterRef,
} from "../engine/across-clusters.ts";
import { listContainers } from "../containers/list-containers.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { Override } from "../json.ts";
import type { ImageItem, InspectImageResult } from "./engine-types.ts";
import { filteredCall, type ListOptions } from "../engine/filters.ts";
import { inspectObject } from "./objects.ts";
import { familiarReference } from "./references.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "../engine/fleet.ts";

export type { ImageItem, InspectImageResult } from "./engine-types.ts";

/** An item of the engine's `GET /images/json`, as it comes: `Created` in Unix seconds. */
type EngineImageItem = Override<ImageItem, { Created: number }>;

/** Body of `/list/:cluster/images`. */
export interface ListImagesResult {
  images: ImageItem[];
}

/** An image item of an across-cluster list, with the cluster it is in. */
export type ClusterImageItem = ImageItem & { cluster: ClusterRef };

/** Body of `/list/images`. */
export interface ListAllImagesResult {
  images: ClusterImageItem[];
  errors: ClusterError[];
}

/**
 * The engine's inspect body of one image, by reference (`local/busybox:1`) or id (`sha256:…`,
 * or a prefix); throws `IMAGE_NOT_FOUND` for an unknown one
 * (docs/http-interface.md, "GET /detail/:cluster/image/:imageName").
 * @example
 * ```ts
 * const image = await inspectImage({ cluster: "prod", name: "local/app:1" }, { fleet });
 * ```
 */
export async function inspectImage(
  input: ItemRef,
  options: CoreOptions,
): Promise<InspectImageResult> {
  return (await inspectObject("image", input, options)) as InspectImageResult;
}

/** Options of {@link listImages} and {@link listAllImages}. */
export interface ListImagesOptions extends ListOptions {
  /** Intermediate images too, as `docker images -a` lists them. */
  all?: boolean;
}

/**
 * The images of a cluster as `docker images` lists them (tagged and dangling, not intermediate
 * layers unless `all`), or those docker's filters keep, each with how many containers use it: the engine's
 * container list, asked beside the images, is where that count comes from. References are
 * given as `docker images` shows them (familiar: `docker.io/local/app:1` is `local/app:1`).
 * @example
 * ```ts
 * const { images } = await listImages("prod", { fleet }); // GET /list/prod/images
 * console.log(images.filter((image) => image.Containers === 0).length, "unused");
 * ```
 */
export async function listImages(
  cluster: string,
  options: ListImagesOptions,
): Promise<ListImagesResult> {
  const config = resolveCluster(cluster, options);
  const { query: filtered, statuses } = filteredCall(options.filters);
  const query = options.all ? { ...filtered, all: "true" } : filtered;
  const [items, { containers }] = await Promise.all([
    callEngine(
      config,
      async (engine, signal) =>
        expectBody<EngineImageItem[]>(
          await engine.get("/images/json", signal, { query }),
          "array",
          config,
        ),
      {
        ...options,
        read: { kind: "images", filters: options.filters, all: options.all === true },
        ...(statuses ? { statuses } : {}),
      },
    ),
    listContainers(String(config.id), { ...options, filters: undefined }),
  ]);
  const users = new Map<string, number>();
  for (const container of containers)
    users.set(container.ImageID, (users.get(container.ImageID) ?? 0) + 1);
  // A copy of each item: the engine's list may be shared with other callers of the same read.
  // References as Docker's engine lists them and `docker images` shows them; Podman's are whole.
  const images = items.map((image) => ({
    ...image,
    RepoTags: image.RepoTags?.map(familiarReference) ?? image.RepoTags,
    RepoDigests: image.RepoDigests?.map(familiarReference) ?? image.RepoDigests,
    Created: new Date(image.Created * 1000).toISOString(),
    Containers: image.Containers >= 0 ? image.Containers : (users.get(image.Id) ?? 0),
  }));
  return { images };
}

/**
 * The images of every cluster (or of `options.clusters`), asked concurrently; clusters that fail are in `errors`.
 * @example
 * ```ts
 * const { images, errors } = await listAllImages({ fleet }); // GET /list/images
 * for (const image of images) console.log(image.cluster.name, image.RepoTags?.[0]);
 * ```
 */
export async function listAllImages(
  options: ListImagesOptions & AcrossClustersOptions,
): Promise<ListAllImagesResult> {
  const read = { kind: "images", filters: options.filters, all: options.all === true } as const;
  return shareAcross(options, read, async (shared) => {
    const { results, errors } = await acrossClusters(shared, async (config, cluster) =>
      (await listImages(String(config.id), shared)).images.map((image) => ({ ...image, cluster })),
    );
    return { images: results.flatMap((result) => result.value), errors };
  });
}
