import { setMaxListeners } from "node:events";
import type { ChalkInstance } from "chalk";
import { attachContainer } from "../core/attach.ts";
import { inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listContainers } from "../core/containers.ts";
import { DocklensError, type ErrorBody } from "../core/errors.ts";
import { inspectImage } from "../core/images.ts";
import { toJsonText } from "../core/json.ts";
import { followContainerLogs, parseLogsQuery, readContainerLogs } from "../core/logs.ts";
import { inspectNetwork, listNetworks } from "../core/networks.ts";
import { listProcesses } from "../core/processes.ts";
import { loadRegistry, type CoreOptions } from "../core/registry.ts";
import { listDetailRoutes } from "../core/routes.ts";
import { readContainerStats, streamContainerStats } from "../core/stats.ts";
import { inspectVolume, listVolumes } from "../core/volumes.ts";

/** The core operations the commands call; not the library entry, which also loads the config schema. */
const core = {
  attachContainer,
  followContainerLogs,
  inspectCluster,
  inspectContainer,
  inspectImage,
  inspectNetwork,
  inspectVolume,
  listClusters,
  listContainers,
  listDetailRoutes,
  listNetworks,
  listProcesses,
  listVolumes,
  parseLogsQuery,
  readContainerLogs,
  readContainerStats,
  streamContainerStats,
};

/** Options every command takes (D14). */
export interface CommandOptions {
  config?: string;
  json?: boolean;
}

type Core = typeof core;
/** What renders results for people; loaded only without `--json`. */
export type Views = typeof import("./tables.ts") & typeof import("./views.ts");

/**
 * Run one command: load the config, ask the core, then print the route's JSON body (`--json`)
 * or a table for people. A result that is a stream (logs `--follow`, stats `--stream`, attach)
 * prints item by item, NDJSON with `--json`, until it ends or Ctrl-C, which closes the engine
 * stream before docklens exits. Errors propagate to `main`, which owns messages and exit codes;
 * `failure` names an error a result carries (an engine that failed inside a body that is still
 * printed), which then fails the command too. A view that renders nothing prints nothing.
 */
export async function run<T>(
  options: CommandOptions,
  query: (lib: Core, coreOptions: CoreOptions) => Promise<T | AsyncGenerator<T>> | T,
  render: (views: Views, result: T, colors: ChalkInstance) => string,
  failure?: (result: T) => ErrorBody | undefined,
): Promise<void> {
  const registry = await loadRegistry(options.config ? { configPath: options.config } : {});
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // One listener per engine call: `clusters` over many engines adds many.
  const stop = () => controller.abort();
  try {
    const result = await query(core, { registry, signal: controller.signal });
    // Tables and their dependencies load only for people, not for `--json` pipelines.
    const views = options.json ? undefined : ({ ...(await import("./tables.ts")), ...(await import("./views.ts")) } as Views);
    const colors = views?.createColors();
    const print = (item: T, whole: boolean) => {
      const text = views ? render(views, item, colors!) : toJsonText(item, whole && process.stdout.isTTY ? 2 : undefined);
      // A whole result that renders nothing (an empty log) prints nothing; a streamed blank line is a line.
      if (text || !whole) process.stdout.write(`${text}\n`);
    };
    if (!isStream(result)) {
      print(result, true);
      const error = failure?.(result);
      if (error) throw new DocklensError(error.code, error.message);
      return;
    }
    process.once("SIGINT", stop).once("SIGTERM", stop);
    for await (const item of result) print(item, false);
  } finally {
    process.off("SIGINT", stop).off("SIGTERM", stop);
    registry.close();
  }
}

function isStream<T>(value: T | AsyncGenerator<T>): value is AsyncGenerator<T> {
  return typeof (value as AsyncGenerator<T> | undefined)?.[Symbol.asyncIterator] === "function";
}
