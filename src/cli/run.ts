import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { ChalkInstance } from "chalk";
import { attachContainer } from "../core/attach.ts";
import { describeConfig, inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listAllContainers, listContainers } from "../core/containers.ts";
import { listDrift } from "../core/drift.ts";
import { DocklensError, type ErrorBody } from "../core/errors.ts";
import { streamEvents } from "../core/events.ts";
import { parseFilters } from "../core/filters.ts";
import { parseTime } from "../core/query.ts";
import { inspectImage, listAllImages, listImages } from "../core/images.ts";
import { toJsonText } from "../core/json.ts";
import { followContainerLogs, parseLogsQuery, readContainerLogs } from "../core/logs.ts";
import { inspectNetwork, listNetworks } from "../core/networks.ts";
import { listProcesses } from "../core/processes.ts";
import { loadFleet, type CoreOptions } from "../core/fleet.ts";
import { listDetailRoutes } from "../core/detail-routes.ts";
import { readContainerStats, streamContainerStats } from "../core/stats.ts";
import { inspectVolume, listVolumes } from "../core/volumes.ts";

/** The core operations the commands call; not the library entry, which also loads the config schema. */
const core = {
  attachContainer,
  describeConfig,
  followContainerLogs,
  inspectCluster,
  inspectContainer,
  inspectImage,
  inspectNetwork,
  inspectVolume,
  listAllContainers,
  listAllImages,
  listClusters,
  listContainers,
  listDrift,
  listImages,
  listDetailRoutes,
  listNetworks,
  listProcesses,
  listVolumes,
  parseFilters,
  parseLogsQuery,
  parseTime,
  streamEvents,
  readContainerLogs,
  readContainerStats,
  streamContainerStats,
};

/** Options every command takes (D14). */
export interface CommandOptions {
  config?: string;
  json?: boolean;
  /** Seconds between redraws (`--watch`), `true` for the default. */
  watch?: number | true;
}

type Core = typeof core;
/** What renders results for people; loaded only without `--json`. */
export type Views = typeof import("./tables.ts") &
  typeof import("./views.ts") &
  typeof import("./across-tables.ts");

/** What a command may add to printing its result. */
export interface RunHooks<T> {
  /** An error the result carries (an engine that failed inside a body still printed): it fails the command. */
  failure?: (result: T, coreOptions: CoreOptions) => ErrorBody | undefined;
  /** Lines for stderr after a table (clusters that could not be asked); not with `--json`. */
  warnings?: (result: T) => string[];
}

/**
 * Run one command: load the config, ask the core, then print the route's JSON body (`--json`)
 * or a table for people. A result that is a stream (logs `--follow`, stats `--stream`, attach)
 * prints item by item, NDJSON with `--json`, until it ends or Ctrl-C, which closes the engine
 * stream before docklens exits. With `watch`, the query runs again that many seconds after each
 * answer (never two at once), redrawing the table in place, or one JSON line per answer, until
 * Ctrl-C. Errors propagate to `main`, which owns messages and exit codes. A view that renders
 * nothing prints nothing.
 */
export async function run<T>(
  options: CommandOptions,
  query: (lib: Core, coreOptions: CoreOptions) => Promise<T | AsyncGenerator<T>> | T,
  render: (views: Views, result: T, colors: ChalkInstance) => string,
  hooks: RunHooks<T> = {},
): Promise<void> {
  const fleet = await loadFleet(options.config ? { configPath: options.config } : {});
  printWarnings(fleet.config.warnings);
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // One listener per engine call: `clusters` over many engines adds many.
  const stop = () => controller.abort();
  const coreOptions = { fleet, signal: controller.signal };
  try {
    // Tables and their dependencies load only for people, not for `--json` pipelines.
    const views = options.json
      ? undefined
      : ({
          ...(await import("./tables.ts")),
          ...(await import("./views.ts")),
          ...(await import("./across-tables.ts")),
        } as Views);
    const colors = views?.createColors();
    const text = (item: T, whole: boolean) =>
      views
        ? render(views, item, colors!)
        : toJsonText(item, whole && process.stdout.isTTY && !options.watch ? 2 : undefined);
    const warn = (item: T) =>
      views &&
      hooks.warnings?.(item).forEach((line) => process.stderr.write(`docklens: ${line}\n`));
    if (options.watch) {
      process.once("SIGINT", stop).once("SIGTERM", stop);
      return await watch(options.watch, controller.signal, async () => {
        const result = (await query(core, coreOptions)) as T;
        // On a terminal each answer replaces the last, as `watch` does; in a pipe they follow one another.
        const clear = views && process.stdout.isTTY ? "\u001b[H\u001b[2J" : "";
        process.stdout.write(`${clear}${text(result, true)}\n`);
        warn(result);
      });
    }
    const result = await query(core, coreOptions);
    if (!isStream(result)) {
      const output = text(result, true);
      // A whole result that renders nothing (an empty log) prints nothing.
      if (output) process.stdout.write(`${output}\n`);
      warn(result);
      const error = hooks.failure?.(result, coreOptions);
      if (error) throw new DocklensError(error.code, error.message);
      return;
    }
    process.once("SIGINT", stop).once("SIGTERM", stop);
    for await (const item of result) process.stdout.write(`${text(item, false)}\n`);
  } finally {
    process.off("SIGINT", stop).off("SIGTERM", stop);
    fleet.close();
  }
}

/**
 * Run `tick` every `seconds` (counted from the end of the last one, so a slow fan-out never
 * overlaps the next) until `signal` aborts; the engine connections stay open between ticks. An
 * engine that fails a later tick says why on stderr and the watch goes on, as `watch docker ps`
 * does (it may come back); anything else, or any failure of the first tick, ends the command
 * with its error and exit code (a bad name or filter does not get better by waiting).
 */
async function watch(
  seconds: number | true,
  signal: AbortSignal,
  tick: () => Promise<void>,
): Promise<void> {
  const interval = (seconds === true ? 2 : seconds) * 1000;
  for (let first = true; !signal.aborted; first = false) {
    try {
      await tick();
    } catch (error) {
      if (signal.aborted) break;
      if (first || !/^ENGINE_/.test((error as { code?: string }).code ?? "")) throw error;
      process.stderr.write(`docklens: ${(error as Error).message}\n`);
    }
    await sleep(interval, undefined, { signal }).catch(() => {});
  }
}

/** What the config load skipped (a docker context docklens cannot use): one line each on stderr. */
export function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`docklens: warning: ${warning}\n`);
}

function isStream<T>(value: T | AsyncGenerator<T>): value is AsyncGenerator<T> {
  return typeof (value as AsyncGenerator<T> | undefined)?.[Symbol.asyncIterator] === "function";
}
