import type Dockerode from "dockerode";
import { loadConfig, type ClusterConfig, type DocklensConfig, type LoadConfigOptions } from "./config.ts";
import { createEngineClient } from "./engine.ts";
import { DocklensError } from "./errors.ts";
import { checkName } from "./names.ts";

/** The configured clusters and one engine client per cluster, created on first use and reused. */
export interface Registry {
  readonly config: DocklensConfig;
  /** The engine client of a cluster (dockerode is loaded on the first call). */
  engine(cluster: ClusterConfig): Promise<Dockerode>;
  /** Close every idle engine connection; the registry may still be used afterwards. */
  close(): void;
}

/** Options every core operation takes. */
export interface CoreOptions {
  registry: Registry;
  /** Cancels the engine calls of the operation (a client that left, say). */
  signal?: AbortSignal;
}

/** Build a registry over a loaded configuration. */
export function createRegistry(config: DocklensConfig): Registry {
  const clients = new Map<number, Promise<{ docker: Dockerode; close(): void }>>();
  return {
    config,
    async engine(cluster) {
      let client = clients.get(cluster.id);
      if (!client) {
        client = createEngineClient(cluster);
        clients.set(cluster.id, client);
        // A client that failed to build (unreadable TLS file) is retried on the next call.
        client.catch(() => clients.delete(cluster.id));
      }
      return (await client).docker;
    },
    close() {
      for (const client of clients.values()) client.then((c) => c.close(), () => {});
      clients.clear();
    },
  };
}

/** Load the configuration (see {@link loadConfig}) and build a registry over it. */
export async function loadRegistry(options: LoadConfigOptions = {}): Promise<Registry> {
  return createRegistry(await loadConfig(options));
}

/**
 * Find a cluster by reference (D1): digits are an id, anything else a name.
 * Throws `INVALID_NAME` for a malformed reference and `CLUSTER_NOT_FOUND` for an unknown one.
 */
export function resolveCluster(ref: string, options: CoreOptions): ClusterConfig {
  const { clusters } = options.registry.config;
  const found = /^\d+$/.test(ref)
    ? clusters.find((cluster) => cluster.id === Number(ref))
    : (checkName("cluster", ref), clusters.find((cluster) => cluster.name === ref));
  if (!found) {
    const known = clusters.map((cluster) => `${cluster.id} ${cluster.name}`).join(", ");
    const shown = /^\d+$/.test(ref) ? `id ${ref.slice(0, 20)}` : JSON.stringify(ref);
    throw new DocklensError("CLUSTER_NOT_FOUND", `cluster ${shown} not found (known: ${known})`);
  }
  return found;
}
