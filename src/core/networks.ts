import type Dockerode from "dockerode";
import { callEngine, expectBody } from "./engine.ts";
import { resolveCluster, type CoreOptions } from "./registry.ts";
import { byName } from "./volumes.ts";

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
  const items = await callEngine(config, (docker, signal) => docker.listNetworks({ abortSignal: signal }), options);
  return { networks: expectBody<Dockerode.NetworkInspectInfo[]>(items, "array", config).sort(byName) };
}
