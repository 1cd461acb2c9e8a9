// A node's `/events` for a hub: the node's one engine event subscription (core/hub/event-hub.ts)
// as the engine's own stream of JSON lines, so that many hubs following a node's cluster hold
// one engine `/events` stream between them. A hub whose stream broke asks again `since` its last
// event: the node answers that from the events its subscription heard lately (a backlog per
// cluster, kept while hubs follow it and for the fleet's grace period after), and leaves only a
// `since` from before them to the engine.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { Backlog } from "../backlog.ts";
import { fleetHubOptions, type CoreOptions, type EngineSlot } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import {
  sinceAfterEvent,
  subscribeEvents,
  type HubSignal,
  type HubSubscription,
} from "../hub/event-hub.ts";
import { toJsonText } from "../json.ts";

/** Events a slow hub may fall behind by before its stream ends (it then re-lists, as after a gap). */
const MAX_BEHIND = 10_000;
/** The recent events a node keeps per cluster for hubs that come back `since` one of them. */
const BACKLOG = { items: 1000, bytes: 1024 * 1024 };

/** What a cluster's subscription heard lately, for hubs that come back. */
interface Recorder {
  /** Oldest first, each with the `since` just after it (as nanoseconds). */
  events: Array<{ after: bigint; line: Buffer }>;
  backlog: Backlog;
  /** Every event from this `since` on is in `events`; unset when none is sure (a gap, a start). */
  floor?: bigint;
  subscription?: HubSubscription;
  users: number;
  linger?: NodeJS.Timeout;
}

const recorders = new WeakMap<EngineSlot, Recorder>();

/**
 * The cluster's events as JSON lines, once its engine stream is open (an engine that is down
 * fails here, with its error): from now on, or with `since` alone, from the node's backlog then
 * on; undefined when the backlog cannot tell them (a `since` before it, an `until`, `filters`),
 * for the engine to answer. The stream ends with an error when the engine's stream drops or the
 * reader falls {@link MAX_BEHIND} events behind: the hub then sees the gap, as it would of an
 * engine of its own, and asks again.
 */
export async function nodeEvents(
  cluster: ClusterConfig,
  options: CoreOptions,
  query: Readonly<Record<string, string | readonly string[]>>,
): Promise<AsyncGenerator<Buffer> | undefined> {
  const { since, ...rest } = query;
  if (Object.keys(rest).length || (since !== undefined && typeof since !== "string"))
    return undefined;
  const recorder = holdRecorder(cluster, options);
  // Taken in the same turn as the subscription below: each event is in one or the other.
  const replay = since === undefined ? [] : heldSince(recorder, nanosOf(since));
  if (!replay) {
    release(cluster, options, recorder);
    return undefined;
  }
  const queue: HubSignal[] = [];
  let wake: (() => void) | undefined;
  // Once for the stream's life: a listener per wait piled up on a long stream.
  options.signal?.addEventListener("abort", () => wake?.(), { once: true });
  const subscription = subscribeEvents(cluster, options, (signal) => {
    queue.push(signal);
    wake?.();
  });
  const close = () => {
    subscription.close();
    release(cluster, options, recorder);
  };
  const next = async (): Promise<HubSignal> => {
    while (!queue.length) {
      if (options.signal?.aborted) throw new DocklensError("SHUTTING_DOWN", "the reader left");
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    return queue.shift()!;
  };
  try {
    // The first word of the hub: open (`up`), or the engine's error.
    const first = await next();
    if (first.kind === "down") throw new DocklensError(first.error.code, first.error.message);
    if (first.kind === "event") queue.unshift(first);
  } catch (error) {
    close();
    throw error;
  }
  return (async function* () {
    try {
      yield* replay;
      for (;;) {
        if (queue.length > MAX_BEHIND)
          throw new DocklensError("CLIENT_TOO_SLOW", "the hub fell too far behind the events");
        const signal = await next();
        if (signal.kind === "down")
          throw new DocklensError(signal.error.code, signal.error.message);
        if (signal.kind === "up") {
          if (signal.reconnected) throw new DocklensError("ENGINE_UNREACHABLE", "events missed");
          continue;
        }
        yield Buffer.from(`${toJsonText(signal.event)}\n`);
      }
    } finally {
      close();
    }
  })();
}

/** The cluster's recorder, made and subscribed on first use, held until {@link release}. */
function holdRecorder(cluster: ClusterConfig, options: CoreOptions): Recorder {
  const slot = options.fleet.slot(cluster);
  let recorder = recorders.get(slot);
  if (!recorder) {
    const made: Recorder = { events: [], backlog: new Backlog(BACKLOG), users: 0 };
    recorders.set(slot, (recorder = made));
    // Its own hold on the subscription, without the reader's signal: it outlives the reader.
    made.subscription = subscribeEvents(cluster, { fleet: options.fleet }, (signal) =>
      record(made, signal),
    );
  }
  recorder.users++;
  clearTimeout(recorder.linger);
  return recorder;
}

/** Let go of the recorder; the last user gone, it keeps recording for the grace period. */
function release(cluster: ClusterConfig, options: CoreOptions, recorder: Recorder): void {
  if (--recorder.users > 0) return;
  const stop = () => {
    if (recorder.users > 0) return;
    recorder.subscription?.close();
    const slot = options.fleet.slot(cluster);
    if (recorders.get(slot) === recorder) recorders.delete(slot);
  };
  const { graceMs } = fleetHubOptions(options.fleet);
  if (graceMs <= 0) stop();
  else recorder.linger = setTimeout(stop, graceMs).unref();
}

/** Keep an event; a gap (the engine's stream dropped or reopened) forgets them all. */
function record(recorder: Recorder, signal: HubSignal): void {
  const after = signal.kind === "event" ? sinceAfterEvent(signal.event) : undefined;
  if (signal.kind !== "event" || after === undefined) {
    recorder.events = [];
    recorder.backlog = new Backlog(BACKLOG);
    recorder.floor = undefined;
    return;
  }
  const line = Buffer.from(`${toJsonText(signal.event)}\n`);
  const kept = { after: nanosOf(after), line };
  // What came before the first event heard is not known: only what follows it is.
  recorder.floor ??= kept.after;
  while (!recorder.backlog.add(line.length)) {
    const oldest = recorder.events.shift();
    // Too big for the backlog alone: from after it on, as if it had been dropped.
    if (!oldest) return void (recorder.floor = kept.after);
    recorder.backlog.remove(oldest.line.length);
    recorder.floor = oldest.after;
  }
  recorder.events.push(kept);
}

/** The lines of the events from `since` on, or undefined when the backlog does not reach back to it. */
function heldSince(recorder: Recorder, since: bigint): Buffer[] | undefined {
  if (recorder.floor === undefined || since < recorder.floor) return undefined;
  return recorder.events.filter((event) => event.after > since).map((event) => event.line);
}

/** The engine's `since` (`seconds[.nanoseconds]`, as engine-read.ts checks it) in nanoseconds. */
function nanosOf(since: string): bigint {
  const [seconds, fraction = ""] = since.split(".");
  return BigInt(seconds!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}
