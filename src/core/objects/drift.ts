import {
  acrossClusters,
  type AcrossClustersOptions,
  type ClusterError,
  type ClusterRef,
} from "../engine/across-clusters.ts";
import { compareStrings } from "../compare.ts";
import { listContainers } from "../containers/list-containers.ts";
import { readEngineVersion } from "../engine/engine-version.ts";
import { comparableReference } from "./references.ts";

/** One image reference that containers of several clusters run, and what it is on each. */
export interface DriftImage {
  /**
   * As `docker ps` shows it, `:latest` made explicit: `local/app:1`; however an engine spells it
   * (Podman's `docker.io/local/app:1`), one reference is one entry.
   */
  reference: string;
  /** Each cluster with containers of it, and the image ids those containers run there. */
  clusters: Array<{ cluster: ClusterRef; imageIds: string[] }>;
  /** The reference stands for more than one image across those clusters. */
  drift: boolean;
}

/** Body of `/list/drift`. */
export interface ListDriftResult {
  images: DriftImage[];
  /** The engine version of each cluster that answered, side by side. */
  engines: Array<{ cluster: ClusterRef; version: string }>;
  errors: ClusterError[];
}

/** A container created from an image id rather than a reference has no reference to compare. */
const IMAGE_ID = /^(?:sha256:)?[a-f0-9]{12,64}$/;

/**
 * Where the same image reference means different images: for each reference that containers
 * (stopped ones too) use on more than one cluster, the image ids per cluster, and whether they
 * differ; and each engine's version. Every cluster (or `options.clusters`) is asked concurrently;
 * those that fail are in `errors`.
 * @example
 * ```ts
 * const { images, engines } = await listDrift({ fleet }); // GET /list/drift
 * for (const image of images) if (image.drift) console.log(image.reference);
 * ```
 */
export async function listDrift(options: AcrossClustersOptions): Promise<ListDriftResult> {
  const { results, errors } = await acrossClusters(options, async (config) => {
    const [{ containers }, version] = await Promise.all([
      listContainers(String(config.id), options),
      readEngineVersion(config, options),
    ]);
    return { containers, version: version.Version ?? "" };
  });
  const byReference = new Map<
    string,
    Map<number, { cluster: ClusterRef; imageIds: Set<string> }>
  >();
  for (const { cluster, value } of results) {
    for (const container of value.containers) {
      if (IMAGE_ID.test(container.Image)) continue;
      const reference = comparableReference(container.Image) ?? container.Image;
      const clusters =
        byReference.get(reference) ??
        new Map<number, { cluster: ClusterRef; imageIds: Set<string> }>();
      byReference.set(reference, clusters);
      const entry = clusters.get(cluster.id) ?? { cluster, imageIds: new Set<string>() };
      clusters.set(cluster.id, entry);
      entry.imageIds.add(container.ImageID);
    }
  }
  const images = [...byReference]
    .filter(([, clusters]) => clusters.size > 1)
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([reference, clusters]) => {
      const entries = [...clusters.values()].map(({ cluster, imageIds }) => ({
        cluster,
        imageIds: [...imageIds].sort(),
      }));
      return {
        reference,
        clusters: entries,
        drift: new Set(entries.flatMap((entry) => entry.imageIds)).size > 1,
      };
    });
  return {
    images,
    engines: results.map(({ cluster, value }) => ({ cluster, version: value.version })),
    errors,
  };
}
