// Opening a fleet, the one way every face does it (CLI, serve, MCP, node): the config (a file or
// the engines this machine knows), then the clusters of its nodes, over HTTP and over NATS, with
// the ids of node clusters the data directory remembers (D22).
import type { LoadConfigOptions } from "../config/config.ts";
import type { DataDirOptions } from "../config/data-dir.ts";
import { loadFleet, type Fleet, type FleetOptions } from "../engine/fleet.ts";

/** Options of {@link openFleet}. */
export interface OpenFleetOptions extends LoadConfigOptions, FleetOptions, DataDirOptions {
  /**
   * Keep the nodes' clusters up to date until this aborts (serve, MCP); unset, each node is asked
   * once (a CLI command).
   */
  watch?: AbortSignal;
  /** Add the clusters of the config's nodes (true by default); a node serves its own alone. */
  nodes?: boolean;
}

/** A fleet opened by {@link openFleet}, and the link to its nodes. */
export interface OpenedFleet {
  fleet: Fleet;
  /** The NATS servers its nodes are found on, as the config gave them without a user. */
  nats?: string;
  /** Close the fleet and its NATS link. */
  close(): Promise<void>;
}

/**
 * Load the config, build a fleet over it, and add the clusters of its nodes: each HTTP node asked
 * (once, or kept up to date with `watch`), every node on its NATS found, a node that cannot be
 * reached listed with its error, with the clusters it had when last reached. The ids of node
 * clusters are the same in every run and process: they are remembered in the data directory
 * (core/config/data-dir.ts), which is read only when the config has nodes.
 * @example
 * ```ts
 * const { fleet, close } = await openFleet({ configPath: "hub.yaml" });
 * try {
 *   console.log(fleet.config.clusters.map((cluster) => `${cluster.id} ${cluster.name}`));
 * } finally {
 *   await close();
 * }
 * ```
 */
export async function openFleet(options: OpenFleetOptions = {}): Promise<OpenedFleet> {
  const { watch, nodes = true, dataDir, ...load } = options;
  const fleet = await loadFleet(load);
  const { config } = fleet;
  if (!nodes || (!config.nodes?.length && !config.nats))
    return { fleet, close: async () => fleet.close() };
  const [{ resolveDataDir }, { openRememberedNodes }] = await Promise.all([
    import("../config/data-dir.ts"),
    import("./remembered-nodes.ts"),
  ]);
  const memory = openRememberedNodes(resolveDataDir({ dataDir }), (warning) =>
    config.warnings.push(warning),
  );
  const join = { memory, ...(watch ? { watch } : {}) };
  if (config.nodes?.length) await (await import("./http-nodes.ts")).joinHttpNodes(fleet, join);
  if (!config.nats) return { fleet, close: async () => fleet.close() };
  const { joinNatsNodes } = await import("./nats-nodes.ts");
  const { withoutUser } = await import("./nats-connect.ts");
  const link = await joinNatsNodes(fleet, join);
  return {
    fleet,
    nats: config.nats.servers.map(withoutUser).join(","),
    close: async () => {
      fleet.close();
      await link.close();
    },
  };
}
