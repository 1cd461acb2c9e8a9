// The reads a node answers from what it already holds rather than its engine: the whole list a
// hub's mirror reads first, the few containers it re-reads on each event, the inspects each hub's
// mirror makes of every running container, and the engine's version, so that any number of hubs
// cost the engine the reads of the node's own mirror (docs/guide/nodes.md).
import type { ClusterConfig } from "../config/cluster-config.ts";
import { readEngineVersion } from "../engine/engine-version.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { mirrorStatus, readMirror, readMirroredContainer } from "../hub/container-mirror.ts";

/** A full container id: an `id` filter of one is no prefix that could match others. */
const FULL_ID = /^[0-9a-f]{64}$/;

/**
 * How long a container's inspect body is shared among the hubs that ask for it, while the
 * node's mirror sees no event of that container. Each hub's mirror inspects every running
 * container it lists (for its state's times), at its start and when it re-opens: hubs that start
 * together cost the engine one inspect each, not one per hub. Only what changes without an event
 * (a health check's log, exec ids) may be this old in a detail read.
 */
export const SHARED_INSPECT_MS = 10_000;

/** Inspect bodies by the node mirror's list item they were read under (a new item: read again). */
const inspects = new WeakMap<object, { at: number; body: Promise<unknown> }>();

/**
 * The engine's body for a read engine-read.ts checked (`template`, the rebuilt `path`, `query`)
 * from what the node holds ({@link mirroredList}, {@link sharedInspect}, the version its core
 * read), else `call`'s: the engine's.
 */
export async function answerFromMirror(
  cluster: ClusterConfig,
  template: string,
  path: string,
  query: Readonly<Record<string, string | readonly string[]>>,
  options: CoreOptions,
  call: () => Promise<unknown>,
): Promise<unknown> {
  if (template === "/version") return readEngineVersion(cluster, options);
  if (template === "/containers/{container}/json")
    return sharedInspect(cluster, path.split("/")[2]!, options, call);
  if (template === "/containers/json")
    return (await mirroredList(cluster, options, query)) ?? call();
  return call();
}

/**
 * A container inspect by full id, shared as {@link SHARED_INSPECT_MS} says; by a name or short
 * id, or without a live mirror at the node, `call` as it is.
 */
async function sharedInspect(
  cluster: ClusterConfig,
  id: string,
  options: CoreOptions,
  call: () => Promise<unknown>,
): Promise<unknown> {
  if (!FULL_ID.test(id) || mirrorStatus(cluster, options) !== "live") return call();
  // Once the node's mirror applied every event it heard of the container (a mirror down: as is).
  const mirrored = await readMirroredContainer(cluster, options, id).catch(() => undefined);
  const item = mirrored?.container?.item;
  if (!item) return call();
  const held = inspects.get(item);
  if (held && Date.now() - held.at < SHARED_INSPECT_MS) return held.body;
  const body = call();
  inspects.set(item, { at: Date.now(), body });
  body.catch(() => inspects.delete(item));
  return body;
}

/**
 * The engine's `GET /containers/json` body for `query` (as engine-read.ts checked it) from the
 * node's mirror: `all` alone, or `all` and an `id` filter of full ids (once the mirror applied
 * every event it heard of them); undefined for any other list, or a node that keeps no mirror.
 */
export async function mirroredList(
  cluster: ClusterConfig,
  options: CoreOptions,
  query: Readonly<Record<string, string | readonly string[]>>,
): Promise<unknown[] | undefined> {
  const { all, filters, ...rest } = query;
  if (Object.keys(rest).length || (all !== "true" && all !== "1")) return undefined;
  const ids = filters === undefined ? undefined : fullIds(filters);
  if (ids === null) return undefined;
  // A read of a few containers opens no mirror at the node (a one-off CLI read, say).
  if (ids) {
    if (mirrorStatus(cluster, options) !== "live") return undefined;
    const applied = await Promise.all(ids.map((id) => readMirroredContainer(cluster, options, id)));
    if (applied.includes(undefined)) return undefined;
  }
  const list = await readMirror(
    cluster,
    options,
    (entries) => entries.map(({ item, status }) => ({ ...item, Status: status })),
    "engine-list",
  );
  return ids ? list?.filter((item) => ids.includes(item.Id)) : list;
}

/** The ids of a `filters` JSON that names full ids alone; null for any other. */
function fullIds(filters: string | readonly string[]): string[] | null {
  const parsed =
    typeof filters === "string" ? (JSON.parse(filters) as Record<string, string[]>) : {};
  const keys = Object.keys(parsed);
  if (keys.length !== 1 || !parsed.id?.every((id) => FULL_ID.test(id))) return null;
  return parsed.id;
}
