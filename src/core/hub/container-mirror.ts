// A live mirror of one engine's containers, kept by list-then-watch as client-go's reflector
// keeps a watch cache: list once, then apply each event of the cluster's hub by re-reading only
// the containers it touched, re-list after a gap (the hub reconnected) and now and then. The
// mirror is live from the list items alone; what only inspect bodies hold (the times of each
// state's `Status` text) is filled in afterwards, a few at a time. Only a live fleet (serve)
// keeps one; the CLI's one-shot commands ask the engine. Here: reading and holding mirrors;
// their upkeep (events applied, re-lists, inspects filled in) is in mirror-upkeep.ts.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { fleetHubOptions, type CoreOptions, type EngineSlot } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import { retryEventsNow, subscribeEvents, type HubSubscription } from "./event-hub.ts";
import type { MirroredContainer } from "./mirror-reads.ts";
import { markDown, relist, settle, touch, touchedContainer, type Mirror } from "./mirror-upkeep.ts";
import { nextStatusChange, statusText } from "./status-text.ts";

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
    if (!entry.state)
      return { ...entry, status: typeof entry.item.Status === "string" ? entry.item.Status : "" };
    until = Math.min(until, nextStatusChange(entry.state, now));
    return { ...entry, status: statusText(entry.state, mirror.wording, now) };
  });
  const value = shape(containers);
  mirror.built.set(shaped, { version: mirror.version, until, value });
  return value;
}

/**
 * Container `id` of a cluster's mirror once the mirror has applied every event it heard of it
 * (`container` absent: the engine has no such container), or undefined when the fleet keeps no
 * mirrors. A mirror that is not live throws its cluster's known error.
 */
export async function readMirroredContainer(
  cluster: ClusterConfig,
  options: CoreOptions,
  id: string,
): Promise<{ container?: MirroredContainer } | undefined> {
  const { live, graceMs } = fleetHubOptions(options.fleet);
  if (!live) return undefined;
  const mirror = heldMirror(cluster, options, graceMs);
  // The hub tells its subscribers in turn: the mirror may hear the event that led here after us.
  await Promise.resolve();
  const behind = () =>
    mirror.status === "opening" ||
    (mirror.status === "live" &&
      (mirror.listing || mirror.dirty.has(id) || mirror.reading.has(id)));
  while (behind()) await new Promise<void>((resolve) => mirror.waiters.push(resolve));
  if (mirror.status !== "live") {
    const error = mirror.error ?? { code: "ENGINE_UNREACHABLE", message: "no engine" };
    throw new DocklensError(error.code, error.message);
  }
  const container = mirror.containers.get(id);
  return container ? { container } : {};
}

/** The status of a cluster's mirror (`live`, say), undefined when none is open: no count made. */
export function mirrorStatus(cluster: ClusterConfig, options: CoreOptions): string | undefined {
  return mirrors.get(options.fleet.slot(cluster))?.status;
}

/** The state of a cluster's mirror, for tests and the bench: its status and container count. */
export function mirrorState(
  cluster: ClusterConfig,
  options: CoreOptions,
): { status: string; containers: number; inspected: number } | undefined {
  const mirror = mirrors.get(options.fleet.slot(cluster));
  if (!mirror) return undefined;
  const inspected = [...mirror.containers.values()].filter((entry) => entry.state).length;
  return { status: mirror.status, containers: mirror.containers.size, inspected };
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

/**
 * A cluster's engine is known to answer again (a node heard from after an error): its event
 * stream need not wait out a backoff, and a mirror that is down lists again now, its readers
 * waiting for that list rather than failing with the error it kept.
 */
export function retryClusterNow(cluster: ClusterConfig, options: CoreOptions): void {
  retryEventsNow(cluster, options);
  const slot = options.fleet.slot(cluster);
  const mirror = mirrors.get(slot);
  if (mirror?.status !== "down") return;
  slot.down = undefined;
  // The list ends live or down again, and either way wakes the readers (settle).
  mirror.status = "opening";
  void relist(cluster, options, mirror);
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
    closeMirror(mirror, slot);
  };
  mirror.lease = setTimeout(check, Math.max(graceMs, 1)).unref();
}

function closeMirror(mirror: Mirror, slot: EngineSlot): void {
  mirror.closed = true;
  mirror.unlisten?.();
  clearTimeout(mirror.lease);
  mirror.lease = undefined;
  clearTimeout(mirror.resync);
  clearTimeout(mirror.batch);
  mirror.subscription.close();
  if (mirrors.get(slot) === mirror) mirrors.delete(slot);
  slot.down = undefined;
  settle(mirror);
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
    reading: new Set(),
    listing: false,
    filling: false,
    touched: new Set(),
    lastUsed: Date.now(),
    subscription: { close() {} },
  };
  // The fleet closed: the mirror goes now (its listener goes when the mirror closes otherwise).
  const closing = slot.closing;
  const onClose = () => closeMirror(mirror, slot);
  closing.addEventListener("abort", onClose, { once: true });
  mirror.unlisten = () => closing.removeEventListener("abort", onClose);
  mirror.subscription = subscribeEvents(cluster, fleet, (signal) => {
    if (mirrors.get(slot) !== mirror) return;
    if (signal.kind === "up") {
      // The engine answers again: its readers (a rule evaluated after the gap) wait for this
      // list, as retryClusterNow's do, rather than fail with the error the mirror kept.
      if (mirror.status === "down") mirror.status = "opening";
      void relist(cluster, fleet, mirror);
    } else if (signal.kind === "down") {
      markDown(mirror, slot, signal.error);
      settle(mirror);
    } else {
      const id = touchedContainer(signal.event);
      if (id) touch(cluster, fleet, mirror, id);
    }
  });
  return mirror;
}
