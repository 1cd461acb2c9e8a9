// The recorder's stats: one sample of each running container every interval, each a one-shot read
// (`stream=false&one-shot=true`: the engine does not wait a second for a second reading) under the
// engine's bound on samples in flight; CPU is the share of the interval since the last sample.
import { setTimeout as sleep } from "node:timers/promises";
import type { ClusterConfig } from "../config/cluster-config.ts";
import { listContainers } from "../containers/list-containers.ts";
import { summarizeStats, type EngineStats } from "../containers/stats.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { latestSample, type LatestSamples } from "./latest-stats.ts";
import type { HistoryStore } from "./store.ts";

/** Options of {@link sampleStats}. */
export interface SampleStatsOptions extends CoreOptions {
  store: HistoryStore;
  /** Where each running container's last sample is kept (for `/metrics`); those gone are removed. */
  latest?: LatestSamples;
  signal: AbortSignal;
  /** Milliseconds between rounds. */
  every: number;
  /** Called after each round (the recorder looks for containers to follow then). */
  each?: () => unknown;
  /** Told of a round that failed, with its error. */
  log?: (message: string, error: unknown) => void;
}

/** Samples of one round asked at once, at most, beside the engine's own bound. */
const AT_ONCE = 4;

/** Sample `cluster`'s running containers every `options.every` ms until `options.signal` aborts. */
export function sampleStats(cluster: ClusterConfig, options: SampleStatsOptions): void {
  const previous = new Map<string, EngineStats["cpu_stats"]>();
  const round = async () => {
    const { running } = await listContainers(String(cluster.id), options);
    const queue = [...running];
    const seen = new Set(running.map((item) => item.Id));
    for (const id of previous.keys()) if (!seen.has(id)) previous.delete(id);
    for (const id of options.latest?.keys() ?? []) if (!seen.has(id)) options.latest?.delete(id);
    const worker = async () => {
      for (let item = queue.shift(); item && !options.signal.aborted; item = queue.shift()) {
        const { Id: id } = item;
        const body = await callEngine(
          cluster,
          (engine, signal) =>
            engine.get(`/containers/${id}/stats`, signal, {
              query: { stream: false, "one-shot": true },
            }),
          { ...options, purpose: "sample" },
        ).catch(() => undefined);
        if (!body) continue;
        const raw = expectBody<EngineStats>(body, "object", cluster);
        const before = previous.get(id);
        previous.set(id, raw.cpu_stats);
        // The first sample of a container has no reading before it: no CPU share yet.
        const summary = summarizeStats({ ...raw, precpu_stats: before ?? raw.cpu_stats });
        const name = (item.Names?.[0] ?? "").replace(/^\//, "");
        const time = Date.now();
        options.latest?.set(id, latestSample(item, raw, summary, time));
        options.store.appendStats([{ cluster: cluster.id, id, name, time, ...summary }]);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
  };
  void (async () => {
    while (!options.signal.aborted) {
      await round().catch((error: Error) => {
        // An engine that cannot be listed has no running container to show as such.
        options.latest?.clear();
        if (!options.signal.aborted)
          options.log?.(`${cluster.name}: cannot sample stats: ${error.message}`, error);
      });
      await options.each?.();
      await sleep(options.every, undefined, { signal: options.signal }).catch(() => undefined);
    }
  })();
}
