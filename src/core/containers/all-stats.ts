import { setTimeout as sleep } from "node:timers/promises";
import type { ClusterRef } from "../engine/across-clusters.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import { resolveCluster } from "../engine/fleet.ts";
import { isDocklensError, type ErrorBody } from "../errors.ts";
import { containerStatuses } from "./containers.ts";
import {
  selectContainers,
  type SelectContainersOptions,
  type SelectedContainer,
  type SelectionError,
} from "./selection.ts";
import { summarizeStats, type EngineStats, type StatsSummary } from "./stats.ts";

/** One container's sample in a round of {@link readAllStats}. */
export interface ContainerStatsItem {
  cluster: ClusterRef;
  container: { id: string; name: string };
  /** The figures `docker stats` shows, as one container's stats route gives them. */
  summary: StatsSummary;
}

/** Body of `GET /stats` (docs/http-interface.md, "GET /stats"), and each line of its stream. */
export interface AllStatsResult {
  /** Newest first, as docker stats lists them: of one second, by cluster id, then the engine's order. */
  stats: ContainerStatsItem[];
  errors: SelectionError[];
}

/** Options of {@link readAllStats} and {@link streamAllStats}: the selection, running containers only. */
export type AllStatsOptions = Omit<SelectContainersOptions, "running">;

/** Shortest time between two rounds of a stream, for engines that answer a sample at once. */
const MIN_ROUND_MS = 1000;

/**
 * One stats sample of every running container of the selection (see selectContainers), as
 * `docker stats --no-stream` takes them: `stream=false` with the engine's previous reading, so
 * that CPU % is measured (the engine takes about a second for it). The samples of an engine run
 * concurrently, within a bound of their own per engine, on reused connections. A container that
 * stopped or went away meanwhile is left out; any other failure is an `errors` entry.
 * @example
 * ```ts
 * const { stats, errors } = await readAllStats({ fleet, clusters: ["prod"] });
 * for (const { cluster, container, summary } of stats)
 *   console.log(cluster.name, container.name, summary.cpuPercent.toFixed(2));
 * console.log(errors.length, "failed");
 * ```
 */
export async function readAllStats(options: AllStatsOptions): Promise<AllStatsResult> {
  const { containers, errors } = await selectContainers({ ...options, running: true });
  const settled = await Promise.all(containers.map((container) => sample(container, options)));
  const stats: ContainerStatsItem[] = [];
  for (const outcome of settled) {
    if ("summary" in outcome) stats.push(outcome);
    else if (outcome.error) errors.push(outcome.error);
  }
  return { stats, errors };
}

/**
 * A round of {@link readAllStats} after another, about one a second, until `options.signal`
 * aborts or the consumer stops: containers that start or stop join or leave the rounds. A
 * selection over its bound fails here, before anything is streamed.
 * @example
 * ```ts
 * const controller = new AbortController();
 * for await (const round of await streamAllStats({ fleet, signal: controller.signal }))
 *   console.log(round.stats.length, "containers");
 * ```
 */
export async function streamAllStats(
  options: AllStatsOptions,
): Promise<AsyncGenerator<AllStatsResult>> {
  let started = Date.now();
  let round = await readAllStats(options);
  return (async function* () {
    for (;;) {
      yield round;
      const wait = MIN_ROUND_MS - (Date.now() - started);
      if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => {});
      if (options.signal?.aborted) return;
      started = Date.now();
      round = await readAllStats(options);
    }
  })();
}

async function sample(
  container: SelectedContainer,
  options: AllStatsOptions,
): Promise<ContainerStatsItem | { error?: SelectionError }> {
  const cluster = resolveCluster(String(container.cluster.id), options);
  const ref = { id: container.id, name: container.name };
  try {
    const body = await callEngine(
      cluster,
      (engine, signal) =>
        engine.get(`/containers/${container.id}/stats`, signal, {
          query: { stream: false },
        }),
      { ...options, purpose: "sample", statuses: containerStatuses(container.name, cluster) },
    );
    // Podman answers nothing for a container that stopped since it was listed.
    if (body === "") return {};
    const raw = expectBody<EngineStats>(body, "object", cluster);
    // Docker's sample of a container that stopped since is all zeros, read at the year 1.
    if (typeof raw.read === "string" && raw.read.startsWith("0001-")) return {};
    return { cluster: container.cluster, container: ref, summary: summarizeStats(raw) };
  } catch (error) {
    if (isDocklensError(error) && /CONTAINER_NOT_(FOUND|RUNNING)/.test(error.code)) return {};
    const body: ErrorBody = isDocklensError(error)
      ? error.toJSON()
      : { code: "INTERNAL_ERROR", message: String(error) };
    return { error: { cluster: container.cluster, container: ref, error: body } };
  }
}
