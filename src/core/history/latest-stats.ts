// The last stats sample of each running container, kept in memory beside what history stores
// (issue 47): `/metrics` serves them as cAdvisor's series, so a scrape asks no engine anything.
// Counters stay the engine's cumulative figures (CPU time, bytes), not the shares history keeps.
import type { ContainerItem } from "../containers/container-types.ts";
import type { EngineStats, StatsSummary } from "../containers/stats.ts";

/** One running container's last sample, with what names it on a dashboard. */
export interface LatestSample {
  id: string;
  name: string;
  image: string;
  /** Its compose project and service (labels `com.docker.compose.*`), or "". */
  project: string;
  service: string;
  /** When it was read, ms since the epoch. */
  time: number;
  /** CPU time used since the container started, in seconds (the engine's `total_usage`). */
  cpuSeconds: number;
  /** The engine's memory usage, page cache included. */
  memoryUsage: number;
  /** Memory usage less the inactive page cache, as `docker stats` shows it. */
  workingSet: number;
  memoryLimit: number;
  netRx: number;
  netTx: number;
  blockRead: number;
  blockWrite: number;
  pids: number;
}

/** The last samples of one cluster's running containers, by container id. */
export type LatestSamples = Map<string, LatestSample>;

/** The sample of `item` from the engine's stats body `raw` and its summary. */
export function latestSample(
  item: ContainerItem,
  raw: EngineStats,
  summary: StatsSummary,
  time: number,
): LatestSample {
  const labels = item.Labels ?? {};
  return {
    id: item.Id,
    name: (item.Names?.[0] ?? "").replace(/^\//, ""),
    image: item.Image ?? "",
    project: labels["com.docker.compose.project"] ?? "",
    service: labels["com.docker.compose.service"] ?? "",
    time,
    cpuSeconds: Number(raw.cpu_stats?.cpu_usage?.total_usage ?? 0) / 1e9,
    memoryUsage: Number(raw.memory_stats?.usage ?? 0),
    workingSet: summary.memoryUsage,
    memoryLimit: summary.memoryLimit,
    netRx: summary.netRx,
    netTx: summary.netTx,
    blockRead: summary.blockRead,
    blockWrite: summary.blockWrite,
    pids: summary.pids,
  };
}
