import type { ChalkInstance } from "chalk";
import { inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listContainers } from "../core/containers.ts";
import { listNetworks } from "../core/networks.ts";
import { loadRegistry, type CoreOptions } from "../core/registry.ts";
import { listDetailRoutes } from "../core/routes.ts";
import { listVolumes } from "../core/volumes.ts";

/** The core operations the commands call; not the library entry, which also loads the config schema. */
const core = { inspectCluster, listClusters, inspectContainer, listContainers, listNetworks, listDetailRoutes, listVolumes };

/** Options every command takes (D14). */
export interface CommandOptions {
  config?: string;
  json?: boolean;
}

type Core = typeof core;
type Tables = typeof import("./tables.ts");

/**
 * Run one command: load the config, ask the core, then print the route's JSON body (`--json`)
 * or a table for people. Errors propagate to `main`, which owns messages and exit codes.
 */
export async function run<T>(
  options: CommandOptions,
  query: (lib: Core, coreOptions: CoreOptions) => Promise<T> | T,
  render: (tables: Tables, result: T, colors: ChalkInstance) => string,
): Promise<void> {
  const registry = await loadRegistry(options.config ? { configPath: options.config } : {});
  try {
    const result = await query(core, { registry });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, process.stdout.isTTY ? 2 : undefined)}\n`);
    } else {
      // Tables and their dependencies load only for people, not for `--json` pipelines.
      const tables = await import("./tables.ts");
      process.stdout.write(`${render(tables, result, tables.createColors())}\n`);
    }
  } finally {
    registry.close();
  }
}
