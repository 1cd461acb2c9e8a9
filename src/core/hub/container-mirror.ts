// A live mirror of one engine's containers, kept by list-then-watch as client-go's reflector
// keeps a watch cache: list once, then apply each event of the cluster's hub by re-reading only
// the containers it touched, re-list after a gap (the hub reconnected) and now and then. Only a
// live fleet (serve) keeps one; the CLI's one-shot commands ask the engine.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { readEngineVersion } from "../engine/engine-version.ts";
import { fleetHubOptions, type CoreOptions, type EngineSlot } from "../engine/fleet.ts";
import { DocklensError, type ErrorBody } from "../errors.ts";
import { jittered, subscribeEvents, type EngineEvent, type HubSubscription } from "./event-hub.ts";
import { readContainers, type MirroredContainer } from "./mirror-reads.ts";
import { nextStatusChange, statusText, type StatusWording } from "./status-text.ts";

/** Container events that change nothing a list item shows (Podman says `exec`, Docker `exec_start`). */
const QUIET =
  /^(exec(_|$)|attach$|top$|resize$|export$|copy$|archive-path$|extract-to-dir$|commit$)/;

/** A full re-list this often while the mirror is held: what events cannot tell is mended. */
const RESYNC_MS = 5 * 60_000;

/** Events of a burst gathered before their containers are re-read together. */
const BATCH_MS = 15;

interface Mirror {
  containers: Map<string, MirroredContainer>;
  /** `opening` until the first list, `live` while it follows the engine, `down` with `error`. */
  status: "opening" | "live" | "down";
  error?: ErrorBody;
  /** Bumped on every change: a body built from the mirror is kept until it changes. */
  version: number;
  wording: StatusWording;
  waiters: Array<() => void>;
  /** Told after each change (a re-read, a re-list, the engine lost): see {@link followMirror}. */
  followers: Set<() => void>;
  dirty: Set<string>;
  reading: boolean;
  listing: boolean;
  subscription: HubSubscription;
  lastUsed: number;
  lease?: NodeJS.Timeout;
  resync?: NodeJS.Timeout;
  batch?: NodeJS.Timeout;
  /** Per shape (its `shaped` name): the body built last, kept until the mirror changes. */
  built: Map<string, { version: number; until: number; value: unknown }>;
}

const mirrors = new WeakMap<EngineSlot, Mirror>();

/**
 * The mirrored containers of a cluster of a live fleet, shaped by `shape` (given them in the
 * engine's list order, and `now`, for the `Status` text), or undefined when the fleet keeps no
 * mirrors. The shape is kept until the mirror changes or a `Status` text would: callers of the
 * same `shaped` (the shape's name: docklens's list, a node's engine list) get the same object.
 * Opens the mirror on first use (the caller waits for the first list, under the cluster's time
 * limit); a mirror that is not live throws its cluster's known error at once.
 */
export async function readMirror<T>(
  cluster: ClusterConfig,
  options: CoreOptions,
  shape: (containers: Array<MirroredContainer & { status: string }>) => T,
  shaped = "list",
): Promise<T | undefined> {
  const { live, graceMs } = fleetHubOptions(options.fleet);
  if (!live) return undefined;
  const mirror = heldMirror(cluster, options, graceMs);
  if (mirror.status === "opening")
    await new Promise<void>((resolve) => mirror.waiters.push(resolve));
  if (mirror.status !== "live") {
    const error = mirror.error ?? { code: "ENGINE_UNREACHABLE", message: "no engine" };
    throw new DocklensError(error.code, error.message);
  }
  const now = Date.now();
  const built = mirror.built.get(shaped);
  if (built && built.version === mirror.version && now < built.until) return built.value as T;
  let until = Infinity;
  const containers = [...mirror.containers.values()].map((entry) => {
    until = Math.min(until, nextStatusChange(entry.state, now));
    return { ...entry, status: statusText(entry.state, mirror.wording, now) };
  });
  const value = shape(containers);
  mirror.built.set(shaped, { version: mirror.version, until, value });
  return value;
}

/** The state of a cluster's mirror, for tests and the bench: its status and container count. */
export function mirrorState(
  cluster: ClusterConfig,
  options: CoreOptions,
): { status: string; containers: number } | undefined {
  const mirror = mirrors.get(options.fleet.slot(cluster));
  return mirror && { status: mirror.status, containers: mirror.containers.size };
}

/**
 * Call `changed` after each change of a cluster's mirror of a live fleet (containers re-read or
 * re-listed, the engine lost): a watch reads the mirror then ({@link readMirror}). Opens the
 * mirror, and holds it until `close`.
 */
export function followMirror(
  cluster: ClusterConfig,
  options: CoreOptions,
  changed: () => void,
): HubSubscription {
  const { graceMs } = fleetHubOptions(options.fleet);
  const mirror = heldMirror(cluster, options, graceMs);
  mirror.followers.add(changed);
  return {
    close() {
      if (mirror.followers.delete(changed)) mirror.lastUsed = Date.now();
    },
  };
}

function heldMirror(cluster: ClusterConfig, options: CoreOptions, graceMs: number): Mirror {
  const slot = options.fleet.slot(cluster);
  let mirror = mirrors.get(slot);
  if (!mirror) mirrors.set(slot, (mirror = open(cluster, options, slot)));
  hold(mirror, slot, graceMs);
  return mirror;
}

/** Keep the mirror while it is read: it closes a grace period after the last read. */
function hold(mirror: Mirror, slot: EngineSlot, graceMs: number): void {
  mirror.lastUsed = Date.now();
  if (mirror.lease) return;
  const check = () => {
    const idle = Date.now() - mirror.lastUsed;
    // Readers waiting for a slow first list, and followers, hold it too.
    if (idle < graceMs || mirror.waiters.length || mirror.followers.size) {
      const wait = mirror.followers.size ? Math.max(graceMs, 1000) : Math.max(graceMs - idle, 100);
      mirror.lease = setTimeout(check, wait).unref();
      return;
    }
    mirror.lease = undefined;
    clearTimeout(mirror.resync);
    clearTimeout(mirror.batch);
    mirror.subscription.close();
    mirrors.delete(slot);
    slot.down = undefined;
    settle(mirror);
  };
  mirror.lease = setTimeout(check, Math.max(graceMs, 1)).unref();
}

function open(cluster: ClusterConfig, options: CoreOptions, slot: EngineSlot): Mirror {
  const fleet = { fleet: options.fleet };
  const mirror: Mirror = {
    containers: new Map(),
    status: "opening",
    version: 0,
    wording: "docker",
    waiters: [],
    built: new Map(),
    followers: new Set(),
    dirty: new Set(),
    reading: false,
    listing: false,
    lastUsed: Date.now(),
    subscription: { close() {} },
  };
  mirror.subscription = subscribeEvents(cluster, fleet, (signal) => {
    if (mirrors.get(slot) !== mirror) return;
    if (signal.kind === "up") void relist(cluster, fleet, mirror);
    else if (signal.kind === "down") {
      markDown(mirror, slot, signal.error);
      settle(mirror);
    } else {
      const id = touchedContainer(signal.event);
      if (id) touch(cluster, fleet, mirror, id);
    }
  });
  return mirror;
}

/** Errors that say the engine is away or hung, not that it refused one call. */
const AWAY = new Set(["ENGINE_TIMEOUT", "ENGINE_UNREACHABLE"]);

/** The mirror is down with `error`; an engine away or hung fails the cluster's reads at once. */
function markDown(mirror: Mirror, slot: EngineSlot, error: ErrorBody): void {
  mirror.status = "down";
  mirror.error = error;
  if (AWAY.has(error.code)) slot.down = error;
}

/** Wake the readers waiting for the first list (or a failure), and tell the followers. */
function settle(mirror: Mirror): void {
  for (const wake of mirror.waiters.splice(0)) wake();
  for (const changed of [...mirror.followers]) changed();
}

/** The container an event touched, if it may change what its list item shows: the mirror re-reads it. */
export function touchedContainer(event: EngineEvent): string | undefined {
  const actor = (event.Actor ?? {}) as { ID?: string; Attributes?: Record<string, string> };
  const action = typeof event.Action === "string" ? event.Action : "";
  if (event.Type === "container") return QUIET.test(action) ? undefined : actor.ID;
  // A network (dis)connected changes the list item's NetworkSettings.
  if (event.Type === "network" && /^(connect|disconnect)$/.test(action))
    return actor.Attributes?.container;
  return undefined;
}

function touch(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror, id: string): void {
  mirror.dirty.add(id);
  schedule(cluster, options, mirror);
}

/** Re-read what is dirty soon, unless a read or list is under way (it schedules when done). */
function schedule(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): void {
  if (!mirror.batch && !mirror.reading && !mirror.listing && mirror.dirty.size)
    mirror.batch = setTimeout(() => void reread(cluster, options, mirror), BATCH_MS);
}

/** Re-read the containers events touched: their list items (one call) and inspect bodies. */
async function reread(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): Promise<void> {
  mirror.batch = undefined;
  if (mirror.reading || mirror.listing || !mirror.dirty.size) return;
  mirror.reading = true;
  const ids = [...mirror.dirty];
  mirror.dirty.clear();
  try {
    const found = await readContainers(cluster, options, mirror.wording, { id: ids });
    for (const id of ids) {
      const entry = found.get(id);
      if (!entry) mirror.containers.delete(id);
      else if (mirror.containers.has(id)) mirror.containers.set(id, entry);
      // A new container comes first, as the engines list the newest first.
      else mirror.containers = new Map([[id, entry], ...mirror.containers]);
    }
    mirror.version++;
    settle(mirror);
  } catch (error) {
    // What could not be re-read is re-listed whole.
    for (const id of ids) mirror.dirty.add(id);
    mirror.reading = false;
    return relistLater(cluster, options, mirror, error);
  }
  mirror.reading = false;
  schedule(cluster, options, mirror);
}

/** List every container again (the first list, after a gap, and now and then). */
async function relist(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): Promise<void> {
  if (mirror.listing) return;
  mirror.listing = true;
  clearTimeout(mirror.resync);
  mirror.dirty.clear();
  try {
    const version = await readEngineVersion(cluster, { ...options, probe: true });
    const components = Array.isArray(version.Components) ? version.Components : [];
    mirror.wording = components.some((part: { Name?: unknown }) => part.Name === "Podman Engine")
      ? "podman"
      : "docker";
    mirror.containers = await readContainers(
      cluster,
      options,
      mirror.wording,
      undefined,
      mirror.containers,
    );
    mirror.version++;
    mirror.status = "live";
    mirror.error = undefined;
    options.fleet.slot(cluster).down = undefined;
    mirror.resync = setTimeout(() => void relist(cluster, options, mirror), RESYNC_MS).unref();
  } catch (error) {
    mirror.listing = false;
    return relistLater(cluster, options, mirror, error);
  }
  mirror.listing = false;
  settle(mirror);
  schedule(cluster, options, mirror);
}

/** The mirror is down with `error` until a list succeeds: tried again after a jittered wait. */
function relistLater(
  cluster: ClusterConfig,
  options: CoreOptions,
  mirror: Mirror,
  error: unknown,
): void {
  const known = (error as DocklensError).toJSON?.();
  markDown(
    mirror,
    options.fleet.slot(cluster),
    known ?? { code: "ENGINE_ERROR", message: String(error) },
  );
  settle(mirror);
  clearTimeout(mirror.resync);
  mirror.resync = setTimeout(() => void relist(cluster, options, mirror), jittered(1000)).unref();
}
