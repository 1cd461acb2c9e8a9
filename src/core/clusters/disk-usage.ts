import type { ClusterConfig } from "../config/cluster-config.ts";
import {
  acrossClusters,
  type AcrossClustersOptions,
  type ClusterError,
  type ClusterRef,
} from "../engine/across-clusters.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import { apiAtLeast, readEngineVersion } from "../engine/engine-version.ts";
import { resolveCluster, type CoreOptions } from "../engine/fleet.ts";

/** The kinds `/system/df` reports, as its `type` parameter names them. */
export const DISK_USAGE_TYPES = ["image", "container", "volume", "build-cache"] as const;
export type DiskUsageType = (typeof DISK_USAGE_TYPES)[number];

/** The engine API version from which `/system/df` takes `type` (Docker 23). */
const TYPE_PARAM_API = "1.42";

/** A number as the engine sent it: a BigInt when beyond 2^53 (see json.ts). */
type EngineNumber = number | bigint;

/** The parts of the engine's `/system/df` body the summary reads; the rest passes through. */
export interface EngineDiskUsage {
  LayersSize?: EngineNumber;
  Images?: Array<{
    Containers?: EngineNumber;
    Size?: EngineNumber;
    SharedSize?: EngineNumber;
  }> | null;
  Containers?: Array<{ State?: string; SizeRw?: EngineNumber }> | null;
  Volumes?: Array<{ UsageData?: { Size?: EngineNumber; RefCount?: EngineNumber } | null }> | null;
  BuildCache?: Array<{ Size?: EngineNumber; InUse?: boolean; Shared?: boolean }> | null;
  [key: string]: unknown;
}

/** One row of `docker system df`: sizes in bytes. */
export interface DiskUsageSummary {
  type: "Images" | "Containers" | "Local Volumes" | "Build Cache";
  total: number;
  active: number;
  size: number;
  reclaimable: number;
}

/** Body of `/list/:cluster/df` (docs/http-interface.md, "GET /list/:cluster/df"). */
export interface DiskUsageResult {
  /** The rows `docker system df` prints, of the kinds asked for. */
  summary: DiskUsageSummary[];
  /** The engine's `/system/df` body as it came. */
  raw: EngineDiskUsage;
}

/** Options of {@link readDiskUsage}. */
export interface DiskUsageOptions extends CoreOptions {
  /** Only these kinds; every kind when empty or absent. Older engines (API < 1.42) are asked for all. */
  types?: readonly DiskUsageType[];
}

/**
 * A cluster's disk usage, as `docker system df` shows it: the engine's `/system/df` and its
 * summary. The engine walks every layer and volume for it, so the call has its own time limit
 * (the cluster's `diskUsageTimeoutMs`, default 60 s), once the engine answered its `/version`
 * within the cluster's `timeoutMs`; concurrent identical requests share one call. Only the kinds
 * asked for are asked of engines whose API takes `type` (1.42 and later).
 * @example
 * ```ts
 * const { summary } = await readDiskUsage("prod", { fleet, types: ["image", "volume"] });
 * for (const row of summary) console.log(row.type, row.size, row.reclaimable);
 * ```
 */
export async function readDiskUsage(
  cluster: string,
  options: DiskUsageOptions,
): Promise<DiskUsageResult> {
  return diskUsageOf(resolveCluster(cluster, options), options);
}

/** A disk usage of the across-cluster body: a cluster's, with the cluster it is of. */
export type ClusterDiskUsage = DiskUsageResult & { cluster: ClusterRef };

/** Body of `/list/df`. */
export interface AllDiskUsageResult {
  clusters: ClusterDiskUsage[];
  errors: ClusterError[];
}

/**
 * The disk usage of every cluster (or of `options.clusters`), asked concurrently, in cluster id
 * order; a cluster that fails is in `errors` and the others are still reported.
 * @example
 * ```ts
 * const { clusters, errors } = await readAllDiskUsage({ fleet });
 * for (const { cluster, summary } of clusters) console.log(cluster.name, summary[0]?.size);
 * console.log(errors.length, "failed");
 * ```
 */
export async function readAllDiskUsage(
  options: DiskUsageOptions & AcrossClustersOptions,
): Promise<AllDiskUsageResult> {
  const { results, errors } = await acrossClusters(options, (config) =>
    diskUsageOf(config, options),
  );
  return { clusters: results.map(({ cluster, value }) => ({ cluster, ...value })), errors };
}

async function diskUsageOf(
  cluster: ClusterConfig,
  options: DiskUsageOptions,
): Promise<DiskUsageResult> {
  const wanted = options.types?.length ? [...new Set(options.types)].sort() : undefined;
  // The long limit is for an engine that works on the answer: one that does not answer at all
  // fails at the cluster's own limit, asked its `/version` (a shared read) first. Its API also
  // says whether `/system/df` takes `type`.
  const { ApiVersion } = await readEngineVersion(cluster, options);
  const narrowed = wanted && apiAtLeast(ApiVersion, TYPE_PARAM_API) ? wanted : undefined;
  const raw = await callEngine(
    cluster,
    async (engine, signal) =>
      expectBody<EngineDiskUsage>(
        await engine.get("/system/df", signal, {
          query: narrowed ? { type: narrowed } : {},
        }),
        "object",
        cluster,
      ),
    {
      ...options,
      timeoutMs: cluster.diskUsageTimeoutMs,
      read: { kind: "disk-usage", types: narrowed },
    },
  );
  const summary = summarizeDiskUsage(raw).filter(
    (row) => !wanted || wanted.includes(TYPE_OF[row.type]),
  );
  return { summary, raw };
}

const TYPE_OF: Record<DiskUsageSummary["type"], DiskUsageType> = {
  Images: "image",
  Containers: "container",
  "Local Volumes": "volume",
  "Build Cache": "build-cache",
};

/**
 * The rows of `docker system df`, computed as the docker CLI computes them: images active when a
 * container uses them, their size the layers' and reclaimable what no container's image holds
 * alone; containers active when running, paused or restarting, sized by their writable layer;
 * volumes active when referenced; build cache active when in use, shared records not counted.
 * Sizes the engine did not measure (-1) count as none.
 */
export function summarizeDiskUsage(raw: EngineDiskUsage): DiskUsageSummary[] {
  const n = (value: EngineNumber | undefined) => Math.max(0, Number(value ?? 0));
  const sum = <T>(items: T[], size: (item: T) => number) =>
    items.reduce((total, item) => total + size(item), 0);
  const images = raw.Images ?? [];
  const usedImages = images.filter((image) => n(image.Containers) > 0);
  const layers = n(raw.LayersSize);
  const held = sum(usedImages, (image) =>
    Number(image.Size ?? -1) < 0 || Number(image.SharedSize ?? -1) < 0
      ? 0
      : n(image.Size) - n(image.SharedSize),
  );
  const containers = raw.Containers ?? [];
  const active = (state: string | undefined) => /running|paused|restarting/.test(state ?? "");
  const volumes = raw.Volumes ?? [];
  const cache = (raw.BuildCache ?? []).filter((record) => !record.Shared);
  return [
    {
      type: "Images",
      total: images.length,
      active: usedImages.length,
      size: layers,
      reclaimable: Math.max(0, layers - held),
    },
    {
      type: "Containers",
      total: containers.length,
      active: containers.filter((container) => active(container.State)).length,
      size: sum(containers, (container) => n(container.SizeRw)),
      reclaimable: sum(
        containers.filter((container) => !active(container.State)),
        (container) => n(container.SizeRw),
      ),
    },
    {
      type: "Local Volumes",
      total: volumes.length,
      active: volumes.filter((volume) => n(volume.UsageData?.RefCount) > 0).length,
      size: sum(volumes, (volume) => n(volume.UsageData?.Size)),
      reclaimable: sum(
        volumes.filter((volume) => n(volume.UsageData?.RefCount) === 0),
        (volume) => n(volume.UsageData?.Size),
      ),
    },
    {
      type: "Build Cache",
      total: (raw.BuildCache ?? []).length,
      active: (raw.BuildCache ?? []).filter((record) => record.InUse).length,
      size: sum(cache, (record) => n(record.Size)),
      reclaimable: sum(
        cache.filter((record) => !record.InUse),
        (record) => n(record.Size),
      ),
    },
  ];
}
