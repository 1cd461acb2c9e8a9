import type Dockerode from "dockerode";
import { callEngine, expectBody, withSignal } from "./engine.ts";
import { resolveCluster, type CoreOptions } from "./registry.ts";
import { checkName } from "./names.ts";
import { byName, type InspectNamedInput } from "./volumes.ts";

/** Body of `/list/:cluster/networks`: the engine's items, unchanged (D5). */
export interface ListNetworksResult {
  networks: Dockerode.NetworkInspectInfo[];
}

/**
 * Every network of a cluster (D5), items unchanged, sorted by name as `docker network ls` shows
 * them: the engine answers in no stable order. `cluster` is an id or a name (D1).
 */
export async function listNetworks(cluster: string, options: CoreOptions): Promise<ListNetworksResult> {
  const config = resolveCluster(cluster, options);
  return callEngine(
    config,
    async (docker, signal) => ({ networks: expectBody<Dockerode.NetworkInspectInfo[]>(await docker.listNetworks({ abortSignal: signal }), "array", config).sort(byName) }),
    { ...options, read: "networks" },
  );
}

/** The engine's inspect body of one network, by name or id (D8); throws `NETWORK_NOT_FOUND`. */
export async function inspectNetwork(input: InspectNamedInput, options: CoreOptions): Promise<Dockerode.NetworkInspectInfo> {
  const cluster = resolveCluster(input.cluster, options);
  const name = checkName("network", input.name);
  const body = await callEngine(cluster, (docker, signal) => withSignal(docker.getNetwork(name), "inspect", signal), {
    ...options,
    read: `network:${name}`,
    statuses: { 404: { code: "NETWORK_NOT_FOUND", message: `network ${JSON.stringify(input.name)} not found in cluster "${cluster.name}"` } },
  });
  return expectBody<Dockerode.NetworkInspectInfo>(body, "object", cluster);
}
