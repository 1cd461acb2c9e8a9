// What serve follows for the rules no event tells: a log rule's lines (the merged logs of its
// selection, grep'd as `/logs?follow=true&grep=` does, bounded by the selection bound) and a cpu
// or memory rule's stats (one sample of its selection's running containers each round).
import { readAllStats } from "../containers/all-stats.ts";
import { followMergedLogs } from "../containers/follow-merged-logs.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { pause } from "../flow.ts";
import { MAX_CAUSE, type Seen } from "./evaluate.ts";
import { selectionOf, type RuleScope } from "./rule-scope.ts";

/** Waits between attempts to follow a selection again. */
const RETRY_MS: readonly [number, number] = [1000, 60_000];

/** What a sampler reports: a condition seen, one ended, a failure. */
export interface SamplerSink {
  seen(seen: Seen): void;
  ended(cluster: number, container: string): void;
  failed(message: string): void;
}

/**
 * Follow the logs of a log rule's selection from now on, each matching line a condition seen,
 * until `signal` aborts; a follow that fails (a selection over its bound, say) is tried again,
 * from when it failed.
 */
export async function followLogRule(
  scope: RuleScope,
  options: CoreOptions & { signal: AbortSignal },
  sink: SamplerSink,
): Promise<void> {
  let wait = RETRY_MS[0];
  // Each container's follow opens a while after the selection is listed (long on a loaded
  // engine): from a time, not `tail: 0`, so that the lines written meanwhile are read too.
  let since = Date.now() / 1000;
  // None yet (a node's not offered): serve starts it again when its clusters change.
  while (!options.signal.aborted && scope.clusters.length) {
    try {
      const items = await followMergedLogs({
        ...selectionOf(scope, options),
        query: { grep: scope.rule.grep!, since, tail: "all" },
      });
      for await (const item of items) {
        wait = RETRY_MS[0];
        if ("text" in item)
          sink.seen({
            cluster: item.cluster,
            container: item.container,
            cause: item.text.slice(0, MAX_CAUSE),
          });
      }
    } catch (error) {
      if (options.signal.aborted) return;
      sink.failed(`rule "${scope.rule.name}": ${(error as Error).message}`);
    }
    since = Date.now() / 1000;
    await pause(wait, options.signal);
    wait = Math.min(wait * 2, RETRY_MS[1]);
  }
}

/**
 * Sample the stats of a cpu or memory rule's selection every `everyMs` until `signal` aborts: a
 * container above the rule's threshold for its whole `for` is a condition seen; one back under
 * it (or gone) has ended.
 */
export async function sampleUsageRule(
  scope: RuleScope,
  options: CoreOptions & { signal: AbortSignal; everyMs: number },
  sink: SamplerSink,
): Promise<void> {
  const { rule } = scope;
  const since = new Map<string, number>();
  while (!options.signal.aborted) {
    try {
      // An empty selection would be every cluster: none (a node's not offered yet) samples nothing.
      const { stats } = scope.clusters.length
        ? await readAllStats(selectionOf(scope, options))
        : { stats: [] };
      const now = Date.now();
      const above = new Set<string>();
      for (const { cluster, container, summary } of stats) {
        const value = rule.when === "cpu" ? summary.cpuPercent : summary.memoryPercent;
        if (!(value > rule.above!)) continue;
        const key = `${cluster.id}\0${container.id}`;
        above.add(key);
        const from = since.get(key) ?? now;
        since.set(key, from);
        const rounded = Math.round(value * 10) / 10;
        if (now - from >= rule.forMs)
          sink.seen({
            cluster,
            container,
            value: rounded,
            cause: `${rule.when} ${rounded}% > ${rule.above}%`,
          });
      }
      for (const key of since.keys())
        if (!above.has(key)) {
          since.delete(key);
          const [cluster, container] = key.split("\0");
          sink.ended(Number(cluster), container!);
        }
    } catch (error) {
      if (options.signal.aborted) return;
      sink.failed(`rule "${rule.name}": ${(error as Error).message}`);
    }
    await pause(options.everyMs, options.signal);
  }
}
