import { setMaxListeners } from "node:events";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { ClusterConfig } from "../config/cluster-config.ts";
import { dialEngine } from "../engine/engine.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { DocklensError, type ErrorBody } from "../errors.ts";
import type { EngineFilters } from "../engine/filters.ts";
import { parseEngineJson } from "../json.ts";
import { ndjsonSplitter } from "../ndjson.ts";
import { resolveClusters, type CoreOptions } from "../engine/fleet.ts";

/** An engine event as the engine sends it, with the cluster it came from. */
export type ClusterEvent = Record<string, unknown> & { cluster: ClusterRef };

/** A cluster's event stream dropped out, or came back (and then sent what it missed). */
export interface EventStatus {
  cluster: ClusterRef;
  status: "disconnected" | "reconnected";
  error?: ErrorBody;
}

/** Options of {@link streamEvents}. */
export interface StreamEventsOptions extends CoreOptions {
  /** Cluster ids or names; every cluster when empty or absent. */
  clusters?: readonly string[];
  /** Unix seconds: events since then (the engine keeps a recent backlog), and until then (the stream ends). */
  since?: number;
  until?: number;
  filters?: EngineFilters;
  /** Waits between reconnections, doubling from the first to the last; default 250 ms to 10 s. */
  backoffMs?: [number, number];
  /** Events held for a consumer that does not read; past it the stream ends with `CLIENT_TOO_SLOW`. Default 1000. */
  maxBuffered?: number;
}

/**
 * The engines' `/events` streams merged into one, each event tagged with its cluster, as
 * `docker events` takes `since`, `until` and filters. An engine that drops out (or is not there
 * yet) is asked again with growing waits, and the stream says so in-line; once back, it is asked
 * for what it sent since the last event seen, so nothing is missed. Engine streams are read as
 * they come, whatever the consumer does: a consumer that falls `maxBuffered` events behind gets a
 * last `CLIENT_TOO_SLOW` error, and the engine streams close. Ends when `options.signal` aborts,
 * the consumer stops, or (with `until`) every engine has sent everything up to it. A consumer
 * iterates it, or aborts `options.signal`: either closes the engine streams.
 * @example
 * ```ts
 * const events = await streamEvents({ fleet, filters: parseFilters("events", ["type=container"]) });
 * for await (const event of events) if ("Action" in event) console.log(event.cluster.name, event.Action);
 * ```
 */
export async function streamEvents(
  options: StreamEventsOptions,
): Promise<AsyncGenerator<ClusterEvent | EventStatus>> {
  const clusters = resolveClusters(options.clusters, options);
  const controller = new AbortController();
  // Each cluster's engine stream listens on it: `/events` over 40 clusters adds 40.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });
  const queue: Array<ClusterEvent | EventStatus> = [];
  const max = options.maxBuffered ?? 1000;
  let wake: (() => void) | undefined;
  let overflow = false;
  const push = (item: ClusterEvent | EventStatus) => {
    if (controller.signal.aborted) return;
    if (queue.length >= max) {
      overflow = true;
      controller.abort();
    } else queue.push(item);
    wake?.();
  };
  // Made once: a `then` per wait would stay attached until every engine stream ends, which may be never.
  const done = Promise.all(
    clusters.map((cluster) => follow(cluster, options, controller.signal, push)),
  ).then(() => true as const);
  return (async function* () {
    try {
      for (;;) {
        while (queue.length) yield queue.shift()!;
        if (overflow)
          throw new DocklensError(
            "CLIENT_TOO_SLOW",
            `this client fell ${max} events behind; reconnect with since set to the last event's time`,
          );
        if (
          controller.signal.aborted ||
          (await Promise.race([
            done,
            new Promise<false>((resolve) => (wake = () => resolve(false))),
          ]))
        ) {
          while (queue.length) yield queue.shift()!;
          return;
        }
      }
    } finally {
      options.signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  })();
}

/** One cluster's events, reconnecting until `signal` aborts or `until` is reached. */
async function follow(
  cluster: ClusterConfig,
  options: StreamEventsOptions,
  signal: AbortSignal,
  push: (item: ClusterEvent | EventStatus) => void,
): Promise<void> {
  const ref = { id: cluster.id, name: cluster.name };
  const [first, last] = options.backoffMs ?? [250, 10_000];
  let since = options.since?.toFixed(9);
  let wait = first;
  let down = false;
  while (!signal.aborted) {
    try {
      const query = {
        ...(since !== undefined ? { since } : {}),
        ...(options.until !== undefined ? { until: options.until.toFixed(9) } : {}),
        ...(options.filters ? { filters: JSON.stringify(options.filters) } : {}),
      };
      const opened = Date.now();
      const chunks = await openEngineStream(
        cluster,
        (docker, streamSignal) =>
          dialEngine(docker, "/events", streamSignal, { query, stream: true }) as Promise<Readable>,
        { ...options, signal },
      );
      // From now on, a reconnection asks for what came since: since the stream opened, or since the last event.
      since ??= (opened / 1000).toFixed(9);
      if (down) push({ cluster: ref, status: "reconnected" });
      down = false;
      const lines = ndjsonSplitter();
      for await (const chunk of chunks) {
        // An engine that sends again is back for good: the next drop starts the waits over.
        wait = first;
        for (const line of lines(chunk)) {
          const event = parseEngineJson(line) as Record<string, unknown>;
          since = after(event) ?? since;
          push({ ...event, cluster: ref });
        }
      }
      // With `until`, the engine ends the stream once it has sent everything up to it; earlier, it dropped out.
      if (untilPassed(options.until)) return;
      throw new DocklensError(
        "ENGINE_UNREACHABLE",
        `the event stream of cluster "${cluster.name}" ended`,
      );
    } catch (error) {
      if (signal.aborted) return;
      const code = (error as DocklensError).code ?? "ENGINE_ERROR";
      if (!down)
        push({
          cluster: ref,
          status: "disconnected",
          error: (error as DocklensError).toJSON?.() ?? { code, message: String(error) },
        });
      down = true;
      // What waiting cannot mend (a filter this engine refuses), and a time past `until`, end this engine's part.
      if (!code.startsWith("ENGINE_") || untilPassed(options.until)) return;
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      wait = Math.min(wait * 2, last);
    }
  }
}

/**
 * Where to ask from after `event`, so that a reconnection sends what came after it and not it
 * again: its `timeNano` (a BigInt here: it is beyond 2^53) plus a microsecond, as the engine's
 * `since` takes it (`seconds.nanoseconds`); else its `time` plus a second.
 */
function after(event: Record<string, unknown>): string | undefined {
  const nanos =
    typeof event.timeNano === "bigint"
      ? event.timeNano
      : typeof event.timeNano === "number"
        ? BigInt(Math.round(event.timeNano))
        : undefined;
  if (nanos !== undefined) return sinceAfter(nanos);
  return typeof event.time === "number" ? String(event.time + 1) : undefined;
}

/** The engine's `since` (`seconds.nanoseconds`, which it takes inclusive) for what came after `timeNano`. */
function sinceAfter(timeNano: bigint): string {
  const next = timeNano + 1000n;
  return `${next / 1_000_000_000n}.${String(next % 1_000_000_000n).padStart(9, "0")}`;
}

/** An event's id in Server-Sent Events: its `timeNano`, as `Last-Event-ID` gives it back. */
export const EVENT_ID = /^\d{1,19}$/;

/**
 * The `since` that resumes a stream after the event whose id (its `timeNano`) an EventSource
 * sends back as `Last-Event-ID` when it reconnects: every cluster is asked for what came after
 * it, so that event is not sent again (docs/http-interface.md, "GET /events").
 */
export function sinceLastEvent(id: string): string {
  if (!EVENT_ID.test(id))
    throw new DocklensError(
      "INVALID_QUERY",
      `Last-Event-ID: expected the id of an event (its timeNano), got ${JSON.stringify(id.slice(0, 40))}`,
      { param: "Last-Event-ID" },
    );
  return sinceAfter(BigInt(id));
}

function untilPassed(until: number | undefined): boolean {
  return until !== undefined && Date.now() / 1000 >= until;
}
