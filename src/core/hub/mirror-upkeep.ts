// The upkeep of a cluster's container mirror (container-mirror.ts): apply the hub's events by
// re-reading the containers they touched, re-list after a gap and now and then, and fill in what
// the lists left out. Each step bumps the mirror's version and tells its readers.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { readEngineVersion } from "../engine/engine-version.ts";
import type { CoreOptions, EngineSlot } from "../engine/fleet.ts";
import type { DocklensError, ErrorBody } from "../errors.ts";
import { jittered, type EngineEvent, type HubSubscription } from "./event-hub.ts";
import { fillContainers, readContainers, type MirroredContainer } from "./mirror-reads.ts";
import type { StatusWording } from "./status-text.ts";

/** Container events that change nothing a list item shows (Podman says `exec`, Docker `exec_start`). */
const QUIET =
  /^(exec(_|$)|attach$|top$|resize$|export$|copy$|archive-path$|extract-to-dir$|commit$)/;

/** A full re-list this often while the mirror is held: what events cannot tell is mended. */
const RESYNC_MS = 5 * 60_000;

/** Events of a burst gathered before their containers are re-read together. */
const BATCH_MS = 15;

/** One cluster's mirror: its containers and what keeps them (container-mirror.ts holds them). */
export interface Mirror {
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
  /** The containers being re-read now. */
  reading: Set<string>;
  listing: boolean;
  /** Inspects under way for what the lists left out; those re-read on events go first. */
  filling: boolean;
  touched: Set<string>;
  subscription: HubSubscription;
  lastUsed: number;
  lease?: NodeJS.Timeout;
  resync?: NodeJS.Timeout;
  batch?: NodeJS.Timeout;
  /** Closed: its upkeep stops (a re-list in flight changes nothing that is read). */
  closed?: boolean;
  /** Stop listening for the fleet's close. */
  unlisten?: () => void;
  /** Per shape (its `shaped` name): the body built last, kept until the mirror changes. */
  built: Map<string, { version: number; until: number; value: unknown }>;
}

/** Errors that say the engine is away or hung, not that it refused one call. */
const AWAY = new Set(["ENGINE_TIMEOUT", "ENGINE_UNREACHABLE"]);

/** The mirror is down with `error`; an engine away or hung fails the cluster's reads at once. */
export function markDown(mirror: Mirror, slot: EngineSlot, error: ErrorBody): void {
  mirror.status = "down";
  mirror.error = error;
  if (AWAY.has(error.code)) slot.down = error;
}

/** Wake the readers waiting for the first list (or a failure), and tell the followers. */
export function settle(mirror: Mirror): void {
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

export function touch(
  cluster: ClusterConfig,
  options: CoreOptions,
  mirror: Mirror,
  id: string,
): void {
  mirror.dirty.add(id);
  schedule(cluster, options, mirror);
}

/** Re-read what is dirty soon, unless a read or list is under way (it schedules when done). */
function schedule(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): void {
  if (!mirror.batch && !mirror.reading.size && !mirror.listing && mirror.dirty.size)
    mirror.batch = setTimeout(() => void reread(cluster, options, mirror), BATCH_MS);
}

/** Re-read the containers events touched: their list items, in one call (inspects follow). */
async function reread(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): Promise<void> {
  mirror.batch = undefined;
  if (mirror.reading.size || mirror.listing || !mirror.dirty.size) return;
  const ids = [...mirror.dirty];
  mirror.reading = new Set(ids);
  mirror.dirty.clear();
  try {
    // Their network modes carry over, not their times: the event may have moved those (inspects
    // follow). Asked when the list came, so that a mode an inspect told meanwhile is kept.
    const networkMode = (id: string) => {
      const mode = mirror.containers.get(id)?.networkMode;
      return mode ? { networkMode: mode } : undefined;
    };
    const found = await readContainers(cluster, options, mirror.wording, { id: ids }, networkMode);
    for (const id of ids) {
      const entry = found.get(id);
      if (!entry) mirror.containers.delete(id);
      else if (mirror.containers.has(id)) mirror.containers.set(id, entry);
      // A new container comes first, as the engines list the newest first.
      else mirror.containers = new Map([[id, entry], ...mirror.containers]);
    }
    mirror.version++;
    mirror.reading = new Set();
    settle(mirror);
  } catch (error) {
    // What could not be re-read is re-listed whole.
    for (const id of ids) mirror.dirty.add(id);
    mirror.reading = new Set();
    return relistLater(cluster, options, mirror, error);
  }
  mirror.reading = new Set();
  for (const id of ids) mirror.touched.add(id);
  schedule(cluster, options, mirror);
  void fill(cluster, options, mirror);
}

/** List every container again (the first list, after a gap, and now and then). */
export async function relist(
  cluster: ClusterConfig,
  options: CoreOptions,
  mirror: Mirror,
): Promise<void> {
  if (mirror.listing || mirror.closed) return;
  mirror.listing = true;
  clearTimeout(mirror.resync);
  mirror.dirty.clear();
  try {
    const version = await readEngineVersion(cluster, { ...options, probe: true });
    const components = Array.isArray(version.Components) ? version.Components : [];
    mirror.wording = components.some((part: { Name?: unknown }) => part.Name === "Podman Engine")
      ? "podman"
      : "docker";
    // The entries as they are when the list came (a re-read may have replaced the map meanwhile).
    mirror.containers = await readContainers(cluster, options, mirror.wording, undefined, (id) =>
      mirror.containers.get(id),
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
  void fill(cluster, options, mirror);
}

/** Fill in what the lists left out (mirror-reads.ts), telling the readers of each slice. */
async function fill(cluster: ClusterConfig, options: CoreOptions, mirror: Mirror): Promise<void> {
  if (mirror.filling) return;
  mirror.filling = true;
  await fillContainers(
    cluster,
    options,
    mirror,
    () => !mirror.closed && mirror.status === "live",
    () => {
      mirror.version++;
      settle(mirror);
    },
  );
  mirror.filling = false;
}

/** The mirror is down with `error` until a list succeeds: tried again after a jittered wait. */
function relistLater(
  cluster: ClusterConfig,
  options: CoreOptions,
  mirror: Mirror,
  error: unknown,
): void {
  // A mirror closed while its list was in flight leaves the cluster's reads alone.
  if (mirror.closed) return;
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
