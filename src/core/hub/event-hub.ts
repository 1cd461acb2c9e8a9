// One engine event subscription per cluster, shared by everything that follows a cluster's
// events: `/events` followers, merged-log selections, the container mirror. Kept as client-go's
// reflector keeps its watch: opened on the first user, reconnected with jittered backoff, and a
// gap (a reconnection) said to every user, who re-lists what it keeps.
import type { Readable } from "node:stream";
import type { ClusterConfig } from "../config/cluster-config.ts";

import { openEngineStream } from "../engine/engine-stream.ts";
import { forgetEngineFacts } from "../engine/engine-version.ts";
import { fleetHubOptions, type CoreOptions, type EngineSlot } from "../engine/fleet.ts";
import type { DocklensError, ErrorBody } from "../errors.ts";
import { pause } from "../flow.ts";
import { parseEngineJson } from "../json.ts";
import { ndjsonSplitter } from "../ndjson.ts";

/** An engine event as the engine sends it. */
export type EngineEvent = Record<string, unknown>;

/**
 * What a user of a cluster's subscription hears: an `event`; `down` when the engine's stream
 * failed (each failed attempt, with its error and the wait before the next); `up` when it is
 * open (again): whatever came in between may be missed, so a user that keeps state re-lists.
 */
export type HubSignal =
  | { kind: "event"; event: EngineEvent }
  | { kind: "down"; error: ErrorBody; retryInMs: number }
  | { kind: "up"; reconnected: boolean };

/** A user's hold on a cluster's subscription; `close` lets go of it. */
export interface HubSubscription {
  close(): void;
}

/** Waits between attempts: doubling from the first to the last, each {@link jittered}. */
export const BACKOFF_MS: readonly [number, number] = [250, 10_000];

/**
 * A wait drawn in the upper half of `wait`: many engines dropped at once by one network fault
 * then do not come back in step.
 */
export function jittered(wait: number): number {
  return Math.round(wait / 2 + (Math.random() * wait) / 2);
}

interface ClusterHub {
  listeners: Set<(signal: HubSignal) => void>;
  controller?: AbortController;
  grace?: NodeJS.Timeout;
  /** Whether the engine's stream is open now. */
  open: boolean;
  /** Engine `/events` streams opened, for tests and the bench. */
  opened: number;
  /** The last failed attempt, told to a user that comes while the engine is away. */
  down?: HubSignal & { kind: "down" };
  /** Ends the wait before the next attempt, while there is one. */
  retry?: () => void;
}

const hubs = new WeakMap<EngineSlot, ClusterHub>();

/**
 * Subscribe to a cluster's engine events. The first user opens the engine's `/events` stream (no
 * filters: users filter for themselves, see event-filter.ts); the last one to leave closes it
 * after the fleet's grace period, so that a user coming back soon finds it open. A user that comes
 * while the stream is open hears `up` at once.
 */
export function subscribeEvents(
  cluster: ClusterConfig,
  options: CoreOptions,
  listener: (signal: HubSignal) => void,
): HubSubscription {
  const slot = options.fleet.slot(cluster);
  let hub = hubs.get(slot);
  if (!hub) {
    const made: ClusterHub = { listeners: new Set(), open: false, opened: 0 };
    hubs.set(slot, (hub = made));
    // The fleet closed: the stream ends now, not a grace period later, and never reconnects.
    // One listener per hub, which lives as long as its slot (unlike mirrors, it is reused).
    slot.closing.addEventListener(
      "abort",
      () => {
        if (hubs.get(slot) === made) hubs.delete(slot);
        clearTimeout(made.grace);
        made.controller?.abort();
        made.controller = undefined;
      },
      { once: true },
    );
  }
  const held = hub;
  clearTimeout(held.grace);
  held.grace = undefined;
  held.listeners.add(listener);
  if (!held.controller) run(cluster, options, held);
  else {
    const { open, down } = held;
    if (open) queueMicrotask(() => listener({ kind: "up", reconnected: false }));
    else if (down) queueMicrotask(() => listener(down));
  }
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      held.listeners.delete(listener);
      if (held.listeners.size) return;
      const stop = () => {
        held.grace = undefined;
        if (held.listeners.size) return;
        held.controller?.abort();
        held.controller = undefined;
        held.open = false;
        held.down = undefined;
      };
      const { graceMs } = fleetHubOptions(options.fleet);
      if (graceMs <= 0) stop();
      else held.grace = setTimeout(stop, graceMs).unref();
    },
  };
}

/** Engine `/events` streams a cluster's hub opened so far, and whether one is open now. */
export function hubStreams(
  cluster: ClusterConfig,
  options: CoreOptions,
): { opened: number; open: boolean } {
  const hub = hubs.get(options.fleet.slot(cluster));
  return { opened: hub?.opened ?? 0, open: Boolean(hub?.controller) };
}

/**
 * Try a cluster's event stream again now, if it waits to reconnect: its engine is known to answer
 * again (a node heard from after an error), so its users need not wait out the backoff.
 */
export function retryEventsNow(cluster: ClusterConfig, options: CoreOptions): void {
  hubs.get(options.fleet.slot(cluster))?.retry?.();
}

/** Keep the engine's stream open until the hub's controller aborts. */
function run(cluster: ClusterConfig, options: CoreOptions, hub: ClusterHub): void {
  const controller = new AbortController();
  hub.controller = controller;
  const { signal } = controller;
  const tell = (message: HubSignal) => {
    for (const listener of [...hub.listeners]) listener(message);
  };
  void (async () => {
    const [first, last] = BACKOFF_MS;
    let wait = first;
    let since: string | undefined;
    let dropped = false;
    while (!signal.aborted) {
      try {
        const opened = Date.now();
        const chunks = await openEngineStream(
          cluster,
          (engine, streamSignal) =>
            engine.get("/events", streamSignal, {
              query: since ? { since } : {},
              stream: true,
            }) as Promise<Readable>,
          { fleet: options.fleet, signal },
        );
        hub.opened++;
        hub.open = true;
        hub.down = undefined;
        // A reconnection asks for what came since the last event seen: the engine keeps a backlog.
        since ??= (opened / 1000).toFixed(9);
        if (dropped) forgetEngineFacts(options.fleet.slot(cluster));
        tell({ kind: "up", reconnected: dropped });
        const lines = ndjsonSplitter();
        for await (const chunk of chunks) {
          wait = first;
          for (const line of lines(chunk)) {
            const event = parseEngineJson(line) as EngineEvent;
            since = sinceAfterEvent(event) ?? since;
            tell({ kind: "event", event });
          }
        }
        throw Object.assign(new Error(`the event stream of cluster "${cluster.name}" ended`), {
          code: "ECONNRESET",
        });
      } catch (error) {
        hub.open = false;
        if (signal.aborted) return;
        dropped = true;
        const delay = jittered(wait);
        hub.down = { kind: "down", error: toErrorBody(error), retryInMs: delay };
        tell(hub.down);
        const woken = new AbortController();
        hub.retry = () => woken.abort();
        await pause(delay, AbortSignal.any([signal, woken.signal]));
        hub.retry = undefined;
        wait = woken.signal.aborted ? first : Math.min(wait * 2, last);
      }
    }
  })();
}

function toErrorBody(error: unknown): ErrorBody {
  const known = (error as DocklensError).toJSON?.();
  if (known) return known;
  return { code: "ENGINE_UNREACHABLE", message: (error as Error).message ?? String(error) };
}

/**
 * Where to ask from after `event`, so that a reconnection sends what came after it and not it
 * again: its `timeNano` (a BigInt here: it is beyond 2^53) plus a microsecond, as the engine's
 * `since` takes it (`seconds.nanoseconds`); else its `time` plus a second.
 */
export function sinceAfterEvent(event: EngineEvent): string | undefined {
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
export function sinceAfter(timeNano: bigint): string {
  const next = timeNano + 1000n;
  return `${next / 1_000_000_000n}.${String(next % 1_000_000_000n).padStart(9, "0")}`;
}
