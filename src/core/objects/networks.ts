import { callEngine, expectBody } from "../engine/engine.ts";
import type { NetworkItem } from "./engine-types.ts";
import { filteredCall, type ListOptions } from "../engine/filters.ts";
import { inspectObject } from "./objects.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "../engine/fleet.ts";
import { byName } from "./volumes.ts";

export type { NetworkItem } from "./engine-types.ts";

/** Body of `/list/:cluster/networks`: the engine's items, unchanged. */
export interface ListNetworksResult {
  networks: NetworkItem[];
}

/**
 * Every network of a cluster (docs/http-interface.md, "GET /list/:cluster/networks"), or those
 * docker's filters keep, items unchanged, sorted by name as `docker network ls` shows them: the
 * engine answers in no stable order. `cluster` is an id or a name.
 * @example
 * ```ts
 * const { networks } = await listNetworks("prod", { fleet }); // GET /list/prod/networks
 * ```
 */
export async function listNetworks(
  cluster: string,
  options: ListOptions,
): Promise<ListNetworksResult> {
  const config = resolveCluster(cluster, options);
  const { query, statuses } = filteredCall(options.filters);
  return callEngine(
    config,
    async (engine, signal) => ({
      networks: expectBody<NetworkItem[]>(
        await engine.get("/networks", signal, { query }),
        "array",
        config,
      ).sort(byName),
    }),
    {
      ...options,
      read: { kind: "networks", filters: options.filters },
      ...(statuses ? { statuses } : {}),
    },
  );
}

/**
 * The engine's inspect body of one network, by name or id; throws `NETWORK_NOT_FOUND`
 * (docs/http-interface.md, "GET /detail/:cluster/network/:networkName").
 * @example
 * ```ts
 * const network = await inspectNetwork({ cluster: "prod", name: "bridge" }, { fleet });
 * ```
 */
export async function inspectNetwork(input: ItemRef, options: CoreOptions): Promise<NetworkItem> {
  return (await inspectObject("network", input, options)) as NetworkItem;
}
