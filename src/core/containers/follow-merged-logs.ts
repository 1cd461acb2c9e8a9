import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { streamEvents, type ClusterEvent, type EventStatus } from "../clusters/events.ts";
import type { ClusterRef } from "../engine/across-clusters.ts";
import { resolveClusters } from "../engine/fleet.ts";
import { Backlog } from "../backlog.ts";
import { DocklensError, isDocklensError, type ErrorBody } from "../errors.ts";
import { BACKOFF_MS, jittered } from "../hub/event-hub.ts";
import { compileGrep } from "./grep.ts";
import { followContainerLogs } from "./logs.ts";
import {
  containerRef,
  MERGED_LOGS_DEFAULTS,
  tagged,
  type MergedLogLine,
  type MergedLogsOptions,
  type SelectionCount,
} from "./merged-logs.ts";
import { ReorderWindow, timeKey } from "./reorder.ts";
import {
  isSelected,
  selectionBound,
  selectContainers,
  type SelectedContainer,
} from "./selection.ts";

/**
 * A status line of followed merged logs: a container of the selection `started` again or
 * `stopped`, one `joined` it (created or started since, and chosen by it), one `failed` (its logs
 * could not be read, or with no `container`, its cluster could not be asked), one's follow failed
 * and is `retrying` (with growing waits, from after its last line), or a cluster's event stream
 * was `disconnected` or `reconnected`.
 */
export interface LogStatusLine {
  cluster: ClusterRef;
  container?: { id: string; name: string };
  status: "started" | "stopped" | "joined" | "failed" | "retrying" | "disconnected" | "reconnected";
  /** RFC 3339: the engine's event time, or when docklens saw the failure. */
  time: string;
  error?: ErrorBody;
}

/** `/logs`'s first line with `newest`: how many matched, how many are followed. */
export interface SelectionLine {
  selection: SelectionCount;
}

/** The stream of {@link followMergedLogs}, and how many containers it follows of how many matched. */
export type MergedLogsStream = AsyncGenerator<Item> & SelectionLine;

/** Options of {@link followMergedLogs}. */
export interface FollowMergedLogsOptions extends MergedLogsOptions {
  /** How long a line is held for earlier lines of other containers to arrive; default 200 ms. */
  windowMs?: number;
  /** Lines held for a consumer that does not read; past it the stream ends with `CLIENT_TOO_SLOW`. Default 10000. */
  maxBuffered?: number;
  /** The same in bytes (of line text, about): default 16 MiB. */
  maxBufferedBytes?: number;
}

type Item = MergedLogLine | LogStatusLine;

/** How often held lines are looked at: a fraction of the window, so none waits much past it. */
const TICK_MS = 50;

/**
 * The selection's logs as they are written, merged in time order through a reorder window
 * (`windowMs`, 200 ms by default: lines of several engines arrive up to some tens of ms apart,
 * while a reader hardly notices a fifth of a second), after each container's `tail`. The
 * engines' events add a status line when a container of the selection stops or starts again, or
 * one newly matches it (which is then followed too, its whole log). Ends when `options.signal`
 * aborts, the consumer stops, or with `until` once every container has sent up to it. A
 * selection over its bound fails here, before anything is streamed (with `newest`, it is cut:
 * the stream's `selection` says how many matched and how many are followed).
 * @example
 * ```ts
 * const controller = new AbortController();
 * const lines = await followMergedLogs({ fleet, project: "shop", signal: controller.signal });
 * for await (const item of lines)
 *   console.log("status" in item ? `-- ${item.status}` : `${item.container.name} | ${item.text}`);
 * ```
 */
export async function followMergedLogs(
  options: FollowMergedLogsOptions,
): Promise<MergedLogsStream> {
  const query = { ...MERGED_LOGS_DEFAULTS, ...options.query, follow: true };
  const matches = query.grep === undefined ? undefined : await compileGrep(query.grep);
  const { containers, errors, matched } = await selectContainers(options);
  const count = { matched, containers: containers.length };
  const controller = new AbortController();
  // Each container's engine stream and the event stream listen on it: up to the selection's bound.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });
  const window = new ReorderWindow<Item>(options.windowMs ?? 200, (item) => timeKey(item.time));
  const ready: Item[] = [];
  const backlog = new Backlog({
    items: options.maxBuffered ?? 10_000,
    ...(options.maxBufferedBytes ? { bytes: options.maxBufferedBytes } : {}),
  });
  let overflow = false;
  let wake: (() => void) | undefined;
  const hold = (item: Item) => {
    if (controller.signal.aborted) return;
    if (!backlog.add(sizeOf(item))) {
      overflow = true;
      controller.abort();
      wake?.();
    } else window.push(item);
  };
  const followed = new Map<
    string,
    { container: SelectedContainer; live: boolean; last?: string }
  >();
  // `from`: a container that (re)started while followed: its whole log, or from `since`.
  const follow = async (container: SelectedContainer, from?: { since?: number }) => {
    const key = `${container.cluster.id}/${container.id}`;
    const entry = followed.get(key) ?? { container, live: false };
    followed.set(key, entry);
    if (entry.live) return;
    entry.live = true;
    const [first, last] = BACKOFF_MS;
    let wait = first;
    let resume = from;
    try {
      for (;;) {
        try {
          const lines = await followContainerLogs(containerRef(container), {
            ...options,
            signal: controller.signal,
            query: {
              ...query,
              ...(resume ? { tail: "all" as const } : {}),
              ...(resume?.since !== undefined ? { since: resume.since } : {}),
              timestamps: true,
            },
          });
          for await (const line of lines) {
            wait = first;
            entry.last = line.time ?? entry.last;
            if (!matches || matches(line.text)) hold(tagged(container, line));
          }
          return;
        } catch (error) {
          const code = (error as DocklensError).code;
          if (controller.signal.aborted || code === "CONTAINER_NOT_FOUND") return;
          const retry = RETRIED.test(code ?? "");
          hold(status(container.cluster, retry ? "retrying" : "failed", now(), container, error));
          if (!retry) return;
          // A follow that failed (an engine away, streams exhausted) is asked again, from after its last line.
          await sleep(jittered(wait), undefined, { signal: controller.signal }).catch(() => {});
          wait = Math.min(wait * 2, last);
          resume = entry.last ? { since: afterLine(entry.last) } : from;
          if (controller.signal.aborted) return;
        }
      }
    } finally {
      entry.live = false;
    }
  };
  for (const { cluster, error } of errors)
    hold({ cluster, status: "failed", time: new Date().toISOString(), error });
  const follows = Promise.all(containers.map((container) => follow(container)));

  const onEvent = async (event: ClusterEvent | EventStatus) => {
    if (!("Type" in event)) {
      const { cluster, status: what, error } = event as EventStatus;
      // Said only of a stream asked for the past, which this one is not.
      if (what === "truncated") return;
      return hold({
        cluster,
        status: what,
        time: new Date().toISOString(),
        ...(error ? { error } : {}),
      });
    }
    const { id, time } = eventOf(event);
    const known = followed.get(`${event.cluster.id}/${id}`);
    if (event.Action === "die") {
      if (known) hold(status(event.cluster, "stopped", time, known.container));
      return;
    }
    if (known) {
      hold(status(event.cluster, "started", time, known.container));
      // From just after its last line: its log keeps what it wrote before it stopped.
      void follow(known.container, known.last ? { since: afterLine(known.last) } : {});
      return;
    }
    const chosen = await isSelected(event.cluster, id, options).catch(() => undefined);
    if (!chosen || followed.size >= selectionBound(options)) return;
    hold(status(event.cluster, "joined", time, chosen));
    void follow(chosen, {});
  };
  // Failed clusters are not watched: a status line said so, and an empty list would mean every cluster.
  const failed = new Set(errors.map((error) => error.cluster.id));
  const watched = resolveClusters(options.clusters, options)
    .filter((cluster) => !failed.has(cluster.id))
    .map((cluster) => String(cluster.id));
  if (query.until === undefined && watched.length) {
    const events = await streamEvents({
      fleet: options.fleet,
      clusters: watched,
      // The clusters' shared subscriptions (core/hub/): 50 followers of a cluster cost one engine stream.
      filters: { type: ["container"], event: ["start", "die"] },
      signal: controller.signal,
    });
    void (async () => {
      for await (const event of events) await onEvent(event);
    })().catch(() => {});
  }
  let done = false;
  void follows.then(() => {
    if (query.until !== undefined) done = true;
  });
  const timer = setInterval(() => {
    ready.push(...window.take(Date.now(), done));
    if (ready.length || done || controller.signal.aborted) wake?.();
  }, TICK_MS);
  const stream = (async function* () {
    try {
      for (;;) {
        while (ready.length) {
          const item = ready.shift()!;
          backlog.remove(sizeOf(item));
          yield item;
        }
        if (overflow) throw backlog.tooSlow("follow again with since set to the last line's time");
        if (controller.signal.aborted || (done && !window.size)) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      clearInterval(timer);
      options.signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  })();
  return Object.assign(stream, { selection: count });
}

/** What a failed follow is retried for: the engine's failures, and docklens's own bound on streams. */
const RETRIED = /^(ENGINE_|TOO_MANY_STREAMS$|STREAM_POOL_FULL$)/;

const now = () => new Date().toISOString();

/** The `since` (Unix seconds) just after a line's RFC 3339 time: that line is not sent again. */
function afterLine(time: string): number {
  const [ms, nanos] = timeKey(time);
  return ms / 1000 + (nanos + 1000) / 1e9;
}

/** What a held item costs, about: its text, and its tags and JSON around it. */
const sizeOf = (item: Item) => ("text" in item ? item.text.length : 0) + 200;

function status(
  cluster: ClusterRef,
  what: LogStatusLine["status"],
  time: string,
  container: SelectedContainer,
  error?: unknown,
): LogStatusLine {
  return {
    cluster,
    container: { id: container.id, name: container.name },
    status: what,
    time,
    // Every engine failure reaches here as a DocklensError (callEngine translates them).
    ...(isDocklensError(error) ? { error: error.toJSON() } : {}),
  };
}

/** A container event's container id and its time as RFC 3339 with nanoseconds. */
function eventOf(event: ClusterEvent): { id: string; time: string } {
  const actor = event.Actor as { ID?: string } | undefined;
  const raw =
    event.timeNano ?? (typeof event.time === "number" ? event.time * 1e9 : Date.now() * 1e6);
  const nanos = BigInt(typeof raw === "bigint" ? raw : Math.round(Number(raw)));
  const seconds = new Date(Number(nanos / 1_000_000n)).toISOString().slice(0, 19);
  return {
    id: actor?.ID ?? (typeof event.id === "string" ? event.id : ""),
    time: `${seconds}.${String(nanos % 1_000_000_000n).padStart(9, "0")}Z`,
  };
}
