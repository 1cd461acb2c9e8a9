import type Dockerode from "dockerode";
import { callEngine, dialEngine, expectBody } from "./engine.ts";
import { filteredCall, type ListOptions } from "./filters.ts";
import { inspectObject } from "./objects.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "./fleet.ts";
import { byName } from "./volumes.ts";

/** Body of `/list/:cluster/networks`: the engine's items, unchanged (D5). */
export interface ListNetworksResult {
  networks: Dockerode.NetworkInspectInfo[];
}

/**
 * Every network of a cluster (D5), or those docker's filters keep, items unchanged, sorted by
 * name as `docker network ls` shows them: the engine answers in no stable order. `cluster` is an
 * id or a name (D1).
 */
export async function listNetworks(
  cluster: string,
  options: ListOptions,
): Promise<ListNetworksResult> {
  const config = resolveCluster(cluster, options);
  const { query, read, statuses } = filteredCall("networks", options.filters);
  return callEngine(
    config,
    async (docker, signal) => ({
      networks: expectBody<Dockerode.NetworkInspectInfo[]>(
        await dialEngine(docker, "/networks", signal, { query }),
        "array",
        config,
      ).sort(byName),
    }),
    { ...options, read, ...(statuses ? { statuses } : {}) },
  );
}

/** The engine's inspect body of one network, by name or id (D8); throws `NETWORK_NOT_FOUND`. */
export async function inspectNetwork(
  input: ItemRef,
  options: CoreOptions,
): Promise<Dockerode.NetworkInspectInfo> {
  return (await inspectObject("network", input, options)) as Dockerode.NetworkInspectInfo;
}
