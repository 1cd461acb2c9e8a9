// The engine reads a container mirror is made of: the list items (all, or some), each with the
// state times and network mode only its inspect body holds.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import type { DocklensError } from "../errors.ts";
import { statusText, type StateTimes, type StatusWording } from "./status-text.ts";

/** An item of the engine's `GET /containers/json`, as it comes. */
export type ListItem = { Id: string } & Record<string, unknown>;

/** A mirrored container: its list item, its state's times, its network mode (from inspect). */
export interface MirroredContainer {
  item: ListItem;
  state: StateTimes;
  networkMode?: string;
}

/**
 * The engine's list items (all, or those of `filters`) with each container's state times and
 * network mode from its inspect body. A container whose derived `Status` already equals the
 * listed one keeps the times `known` holds: a re-list inspects only what changed.
 */
export async function readContainers(
  cluster: ClusterConfig,
  options: CoreOptions,
  wording: StatusWording,
  filters: Record<string, string[]> | undefined,
  known?: Map<string, MirroredContainer>,
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
  const entries = await Promise.all(
    items.map(async (item): Promise<[string, MirroredContainer] | undefined> => {
      const before = known?.get(item.Id);
      if (before && item.Status === statusText(before.state, wording, now))
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
      const detail = await inspect(cluster, options, item.Id);
      return detail && [item.Id, { item, ...detail }];
    }),
  );
  return new Map(entries.filter((entry) => entry !== undefined));
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
