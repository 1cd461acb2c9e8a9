import { setMaxListeners } from "node:events";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { ClusterConfig } from "../config/cluster-config.ts";

import { openEngineStream } from "../engine/engine-stream.ts";
import { readEventsReach } from "./event-backlog.ts";
import { DocklensError, type ErrorBody } from "../errors.ts";
import type { EngineFilters } from "../engine/filters.ts";
import { parseEngineJson } from "../json.ts";
import { ndjsonSplitter } from "../ndjson.ts";
import { resolveClusters, type CoreOptions } from "../engine/fleet.ts";
import { matchesEventFilters } from "../hub/event-filter.ts";
import {
  BACKOFF_MS,
  jittered,
  sinceAfter,
  sinceAfterEvent,
  subscribeEvents,
} from "../hub/event-hub.ts";

/** An engine event as the engine sends it, with the cluster it came from. */
export type ClusterEvent = Record<string, unknown> & { cluster: ClusterRef };

/**
 * A cluster's event stream dropped out, or came back (and then sent what it missed); or
 * (`truncated`) its engine's events reach back only to `oldest`, short of the `since` asked.
 */
export interface EventStatus {
  cluster: ClusterRef;
  status: "disconnected" | "reconnected" | "truncated";
  error?: ErrorBody;
  /** Of `truncated`: Unix seconds of the oldest event the engine still keeps. */
  oldest?: number;
}

/** Options of {@link streamEvents}. */
export interface StreamEventsOptions extends CoreOptions {
  /** Cluster ids or names; every cluster when empty or absent. */
  clusters?: readonly string[];
  /** Unix seconds: events since then (the engine keeps a recent backlog), and until then (the stream ends). */
  since?: number;
  until?: number;
  filters?: EngineFilters;
  /** Events held for a consumer that does not read; past it the stream ends with `CLIENT_TOO_SLOW`. Default 1000. */
  maxBuffered?: number;
  /**
   * End with the clusters' errors once every cluster has failed (each within its time limit)
   * before any answered, as the CLI's other across-cluster commands fail when every cluster does;
   * else engines that are away are asked again until the stream ends.
   */
  failWhenAllDown?: boolean;
}

/** What a cluster's part hands the merged stream. */
type Push = (item: ClusterEvent | EventStatus) => void;

/**
 * The engines' events merged into one, each event tagged with its cluster, as `docker events`
 * takes `since`, `until` and filters. Without `since` and `until`, each cluster's events come
 * from its shared subscription (core/hub/event-hub.ts: one engine stream however many follow
 * it), filtered here as the engine filters them; asking for the past opens a stream of its own.
 * With `since`, a cluster whose engine's backlog does not reach back to it says so in-line first
 * (`truncated`). An engine that drops out (or is not there yet) is asked again with growing
 * waits, and the stream says so in-line, once per failed attempt; once back, it is asked for what it sent since
 * the last event seen, so nothing is missed. A consumer that falls `maxBuffered` events behind
 * gets a last `CLIENT_TOO_SLOW` error. Ends when `options.signal` aborts, the consumer stops, or
 * (with `until`) every engine has sent everything up to it.
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
  // What ends the stream with an error (a consumer too slow, every engine away); set from callbacks.
  const ended: { failure?: DocklensError } = {};
  const fail = (error: DocklensError) => {
    ended.failure ??= error;
    controller.abort();
    wake?.();
  };
  const allDown = options.failWhenAllDown ? allDownWatch(clusters.length, fail) : undefined;
  const push: Push = (item) => {
    if (controller.signal.aborted) return;
    allDown?.(item);
    if (queue.length >= max)
      fail(
        new DocklensError(
          "CLIENT_TOO_SLOW",
          `this client fell ${max} events behind; reconnect with since set to the last event's time`,
        ),
      );
    else queue.push(item);
    wake?.();
  };
  const shared = options.since === undefined && options.until === undefined;
  // Made once: a `then` per wait would stay attached until every engine stream ends, which may be never.
  const done = Promise.all(
    clusters.map((cluster) =>
      shared
        ? followShared(cluster, options, controller.signal, push)
        : follow(cluster, options, controller.signal, push),
    ),
  ).then(() => true as const);
  return (async function* () {
    try {
      for (let finished = false; ;) {
        while (queue.length) yield queue.shift()!;
        if (ended.failure) throw ended.failure;
        if (finished) return;
        finished =
          controller.signal.aborted ||
          (await Promise.race([
            done,
            new Promise<false>((resolve) => (wake = () => resolve(false))),
          ]));
      }
    } finally {
      options.signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  })();
}

/**
 * Watches the status lines for every cluster having failed before any answered; then `fail`s
 * with their errors, as an across-cluster command whose every cluster failed.
 */
function allDownWatch(count: number, fail: (error: DocklensError) => void): Push {
  const down = new Map<number, EventStatus>();
  let answered = false;
  return (item) => {
    if (answered) return;
    if (!("status" in item) || item.status !== "disconnected") {
      answered = true;
      return;
    }
    down.set(item.cluster.id, item as EventStatus);
    if (down.size < count) return;
    const reasons = [...down.values()].map(
      ({ cluster, error }) => `${cluster.name}: ${error?.message ?? "disconnected"}`,
    );
    fail(
      new DocklensError(
        [...down.values()][0]?.error?.code ?? "ENGINE_UNREACHABLE",
        `no engine could be asked for its events (${reasons.join("; ")})`,
      ),
    );
  };
}

/**
 * One cluster's events from its shared subscription, filtered as the engine would, until
 * `signal` aborts. Each failed attempt of the subscription is a `disconnected` line, its return
 * a `reconnected` one.
 */
function followShared(
  cluster: ClusterConfig,
  options: StreamEventsOptions,
  signal: AbortSignal,
  push: Push,
): Promise<void> {
  const ref = { id: cluster.id, name: cluster.name };
  let down = false;
  const subscription = subscribeEvents(cluster, options, (message) => {
    if (message.kind === "event") {
      if (matchesEventFilters(message.event, options.filters))
        push({ ...message.event, cluster: ref });
    } else if (message.kind === "down") {
      down = true;
      push({ cluster: ref, status: "disconnected", error: message.error });
    } else if (down) {
      down = false;
      push({ cluster: ref, status: "reconnected" });
    }
  });
  return new Promise((resolve) => {
    const leave = () => {
      subscription.close();
      resolve();
    };
    if (signal.aborted) leave();
    else signal.addEventListener("abort", leave, { once: true });
  });
}

/** One cluster's events, reconnecting until `signal` aborts or `until` is reached. */
async function follow(
  cluster: ClusterConfig,
  options: StreamEventsOptions,
  signal: AbortSignal,
  push: Push,
): Promise<void> {
  const ref = { id: cluster.id, name: cluster.name };
  const [first, last] = BACKOFF_MS;
  let since = options.since?.toFixed(9);
  /** The `since` whose reach in the engine's backlog is yet to be checked. */
  let reach = options.since;
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
        (engine, streamSignal) =>
          engine.get("/events", streamSignal, { query, stream: true }) as Promise<Readable>,
        { ...options, signal },
      );
      // Said once, before the cluster's events: its engine keeps a backlog of its last few.
      if (reach !== undefined) {
        const oldest = await readEventsReach(cluster, reach, { ...options, signal });
        if (oldest !== undefined) push({ cluster: ref, status: "truncated", oldest });
        reach = undefined;
      }
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
          since = sinceAfterEvent(event) ?? since;
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
      // Each failed attempt is said: a user sees that docklens keeps asking, and why.
      push({
        cluster: ref,
        status: "disconnected",
        error: (error as DocklensError).toJSON?.() ?? { code, message: String(error) },
      });
      down = true;
      // What waiting cannot mend (a filter this engine refuses), and a time past `until`, end this engine's part.
      if (!code.startsWith("ENGINE_") || untilPassed(options.until)) return;
      await sleep(jittered(wait), undefined, { signal }).catch(() => undefined);
      wait = Math.min(wait * 2, last);
    }
  }
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
