// The container lists a node answers from its live mirror rather than its engine: the whole list
// a hub's mirror reads first, and the few containers it re-reads on each event, so that any number
// of hubs cost the engine the list reads of the node's own mirror (README, "Nodes").
import type { ClusterConfig } from "../config/cluster-config.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { readMirror, readMirroredContainer } from "../hub/container-mirror.ts";

/** A full container id: an `id` filter of one is no prefix that could match others. */
const FULL_ID = /^[0-9a-f]{64}$/;

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
  if (ids) {
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
