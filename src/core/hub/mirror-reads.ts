// The engine reads a container mirror is made of: the list items (all, or some), then each
// container's state times and network mode, which only its inspect body holds.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import type { DocklensError } from "../errors.ts";
import { statusText, type StateTimes, type StatusWording } from "./status-text.ts";

/** An item of the engine's `GET /containers/json`, as it comes. */
export type ListItem = { Id: string } & Record<string, unknown>;

/**
 * A mirrored container: its list item, and its state's times and network mode from its inspect
 * body. No `state` yet: it is not inspected, and its listed `Status` is served as it came.
 */
export interface MirroredContainer {
  item: ListItem;
  state?: StateTimes;
  networkMode?: string;
}

/** What a mirror knows of a container when its list item comes: asked once the list is in. */
export type KnownContainer = (
  id: string,
) => Pick<MirroredContainer, "state" | "networkMode"> | undefined;

/**
 * The engine's list items (all, or those of `filters`), in one call. A container keeps the
 * network mode `known` holds of it, and its times too when its derived `Status` equals the listed
 * one (what `known` tells without `state` lends its mode alone); one never started needs none;
 * the others are left for {@link inspectContainers}, so that a list of 12,000 waits for no
 * inspect. `known` is asked after the list came: an inspect that landed meanwhile counts.
 */
export async function readContainers(
  cluster: ClusterConfig,
  options: CoreOptions,
  wording: StatusWording,
  filters: Record<string, string[]> | undefined,
  known?: KnownContainer,
): Promise<Map<string, MirroredContainer>> {
  const items = await callEngine(
    cluster,
    async (engine, signal) =>
      expectBody<ListItem[]>(
        await engine.get("/containers/json", signal, {
          query: { all: true, ...(filters ? { filters: JSON.stringify(filters) } : {}) },
        }),
        "array",
        cluster,
      ),
    options,
  );
  const now = Date.now();
  return new Map(
    items.map((item): [string, MirroredContainer] => {
      const before = known?.(item.Id);
      if (before?.state && item.Status === statusText(before.state, wording, now))
        return [item.Id, { ...before, item }];
      // A container never started has no times: its text is "Created" for good, no inspect needed
      // (but for its network mode, when the item names none).
      const networks = (item.NetworkSettings as { Networks?: object } | undefined)?.Networks;
      if (
        item.State === "created" &&
        item.Status === "Created" &&
        (item.HostConfig || Object.keys(networks ?? {}).length)
      )
        return [item.Id, { item, state: { Status: "created" } }];
      // Its network mode is set when it is made: what its last inspect told holds meanwhile.
      return [item.Id, before?.networkMode ? { item, networkMode: before.networkMode } : { item }];
    }),
  );
}

/** Containers inspected in one round of {@link fillContainers}, told together. */
const FILL_SLICE = 32;

/**
 * Inspect the containers of `mirror` its lists left without state times, a slice at a time,
 * while `current`; `changed` after each slice. First those events touched, then those whose list
 * item names no network (the mode only inspect tells), then those whose `Status` text moves each
 * second. A failure leaves the rest for the next list: their listed text is served meanwhile.
 */
export async function fillContainers(
  cluster: ClusterConfig,
  options: CoreOptions,
  mirror: { containers: Map<string, MirroredContainer>; touched: Set<string> },
  current: () => boolean,
  changed: () => void,
): Promise<void> {
  try {
    for (;;) {
      const unfilled = (id: string) => mirror.containers.get(id)?.state === undefined;
      const touched = [...mirror.touched].filter(unfilled);
      mirror.touched = new Set(touched);
      const rest = [...mirror.containers.keys()].filter(unfilled);
      const ids = [...touched, ...rest.sort((a, b) => urgency(mirror, b) - urgency(mirror, a))];
      const slice = [...new Set(ids)].slice(0, FILL_SLICE);
      if (!slice.length || !current()) return;
      const items = new Map(slice.map((id) => [id, mirror.containers.get(id)?.item]));
      const found = await inspectContainers(cluster, options, slice);
      for (const [id, detail] of found) {
        mirror.touched.delete(id);
        const entry = mirror.containers.get(id);
        if (!entry || entry.state) continue;
        // Re-read meanwhile: times from before its last event would not fit it, but its network
        // mode, set when it was made, does (Podman's list item names none: it would read "default").
        if (entry.item !== items.get(id)) {
          const mode = detail?.networkMode;
          if (mode && !entry.networkMode)
            mirror.containers.set(id, { ...entry, networkMode: mode });
          continue;
        }
        // Gone: its destroy event follows, or the next list; meanwhile it is no longer listed.
        if (!detail) mirror.containers.delete(id);
        else mirror.containers.set(id, { ...entry, ...detail });
      }
      changed();
    }
  } catch {
    // The engine is away or refused: the hub's signal or the next list tells.
  }
}

/** How soon a container's inspect tells what its list item does not: the higher, the sooner. */
function urgency(mirror: { containers: Map<string, MirroredContainer> }, id: string): number {
  const item = mirror.containers.get(id)?.item;
  const networks = (item?.NetworkSettings as { Networks?: object } | undefined)?.Networks;
  if (item && !item.HostConfig && !Object.keys(networks ?? {}).length) return 2;
  return typeof item?.Status === "string" && /second/.test(item.Status) ? 1 : 0;
}

/**
 * The state times and network mode of containers `ids`; undefined for one that is gone. Half
 * the cluster's calls in flight at most: the rest stay free for everyone's reads.
 */
async function inspectContainers(
  cluster: ClusterConfig,
  options: CoreOptions,
  ids: readonly string[],
): Promise<Map<string, { state: StateTimes; networkMode?: string } | undefined>> {
  const atOnce = Math.max(1, Math.floor(cluster.maxConcurrency / 2));
  const found = new Map<string, { state: StateTimes; networkMode?: string } | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      found.set(id, await inspect(cluster, options, id));
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return found;
}

/** A container's state and network mode; undefined when it is gone. */
async function inspect(
  cluster: ClusterConfig,
  options: CoreOptions,
  id: string,
): Promise<{ state: StateTimes; networkMode?: string } | undefined> {
  try {
    const body = await callEngine(
      cluster,
      (engine, signal) => engine.get(`/containers/${encodeURIComponent(id)}/json`, signal),
      { ...options, statuses: { 404: { code: "CONTAINER_NOT_FOUND", message: "gone" } } },
    );
    const detail = expectBody<{ State?: StateTimes; HostConfig?: { NetworkMode?: string } }>(
      body,
      "object",
      cluster,
    );
    const mode = detail.HostConfig?.NetworkMode;
    return { state: detail.State ?? {}, ...(mode ? { networkMode: mode } : {}) };
  } catch (error) {
    if ((error as DocklensError).code === "CONTAINER_NOT_FOUND") return undefined;
    throw error;
  }
}
