// History in serve and node (D26): a store and one recorder per cluster, the recorders following the
// fleet's clusters as nodes' come and go; and where the reads find a store: serve's own, else the
// file a serve writes (a CLI one-off reads it), else none ("no history here").
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { ClusterConfig } from "../config/cluster-config.ts";
import { historyPath } from "../config/data-dir.ts";
import { toHistoryConfig, type HistoryConfig } from "../config/history-schema.ts";
import { parseFilters } from "../engine/filters.ts";
import { fleetAcrossReads, type CoreOptions, type Fleet } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import { compileContainerFilters, filtersAreLocal } from "../hub/container-filter.ts";
import type { LatestSample, LatestSamples } from "./latest-stats.ts";
import { recordCluster } from "./recorder.ts";
import { openSqliteStore } from "./sqlite-store.ts";
import type { HistoryStatus, HistoryStore } from "./store.ts";

/** Options of {@link startHistory}. */
export interface StartHistoryOptions extends CoreOptions {
  /** `--data-dir`: where the store's file is when the config names none. */
  dataDir?: string;
  /** Told of the store's problems and of what a recorder could not read (serve's stderr). */
  log?: (message: string) => void;
}

/** The history of a running serve or node. */
export interface HistoryService {
  store: HistoryStore;
  /** Where the store is. */
  path: string;
  status(): HistoryStatus;
  /** The last stats sample of each running container of the cluster `id`, if it is recorded. */
  latest(id: number): ReadonlyMap<string, LatestSample> | undefined;
  close(): Promise<void>;
}

const services = new WeakMap<object, HistoryService>();

/** The history serve keeps over `fleet` (or the fleet a scoped view was made of), if any. */
export function historyOf(fleet: Fleet): HistoryService | undefined {
  return services.get(fleetAcrossReads(fleet));
}

/** The config's `history` with its defaults. */
function historySettings(fleet: Fleet): HistoryConfig {
  return fleet.config.history ?? toHistoryConfig(undefined);
}

/** How often the fleet's list of clusters is looked at (a node's clusters came or went). */
const CLUSTERS_EVERY_MS = 1000;

/**
 * Start recording every cluster of `options.fleet` (a live one: serve's) as the config's `history`
 * says, until `close`; undefined when it says `false`. A store that cannot be opened or written is
 * told once through `log` and counted; the recorders go on. A `history.logs.filter` that needs the
 * engine is `INVALID_CONFIG`.
 * @example
 * ```ts
 * const history = await startHistory({ fleet, log: console.error });
 * // later
 * await history?.close();
 * ```
 */
export async function startHistory(
  options: StartHistoryOptions,
): Promise<HistoryService | undefined> {
  const { fleet } = options;
  const settings = historySettings(fleet);
  if (!settings) return undefined;
  const log = options.log ?? (() => {});
  const select = settings.logs ? await logSelection(settings.logs.filter) : undefined;
  const path = historyPath(settings.path, options.dataDir);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch {
    // The store says why it cannot open the file.
  }
  const store = await openSqliteStore({
    path,
    maxAgeMs: settings.maxAgeMs,
    maxBytes: settings.maxBytes,
    onProblem: (problem) =>
      log(`history (${path}): ${problem}; live views go on, records are dropped`),
  });
  const recorderOptions = {
    fleet,
    store,
    statsIntervalMs: settings.statsIntervalMs,
    logs: settings.logs && select ? { select, max: settings.logs.max } : (false as const),
    log: (message: string) => log(`history: ${message}`),
  };
  const recorders = new Map<
    number,
    { cluster: ClusterConfig; stop: Promise<() => void>; latest: LatestSamples }
  >();
  let followed: readonly ClusterConfig[] | undefined;
  const follow = () => {
    const clusters = fleet.config.clusters;
    if (clusters === followed) return;
    followed = clusters;
    const wanted = new Map(clusters.map((cluster) => [cluster.id, cluster]));
    for (const [id, recorder] of recorders)
      if (wanted.get(id) !== recorder.cluster) {
        void recorder.stop.then((stop) => stop());
        recorders.delete(id);
      }
    for (const [id, cluster] of wanted)
      if (!recorders.has(id)) {
        const latest: LatestSamples = new Map();
        const stop = recordCluster(cluster, { ...recorderOptions, latest });
        recorders.set(id, { cluster, stop, latest });
      }
  };
  follow();
  const following = setInterval(follow, CLUSTERS_EVERY_MS).unref();
  const service: HistoryService = {
    store,
    path,
    status: () => store.status(),
    latest: (id) => recorders.get(id)?.latest,
    async close() {
      clearInterval(following);
      services.delete(fleetAcrossReads(fleet));
      for (const { stop } of recorders.values()) (await stop)();
      await store.close();
    },
  };
  services.set(fleetAcrossReads(fleet), service);
  return service;
}

/**
 * Check the config's `history` as {@link startHistory} reads it, without starting anything:
 * `INVALID_CONFIG` for a `history.logs.filter` that cannot be used. serve and node check it so
 * before they listen.
 */
export async function checkHistory(fleet: Fleet): Promise<void> {
  const settings = historySettings(fleet);
  if (settings && settings.logs) await logSelection(settings.logs.filter);
}

/** The test of `history.logs.filter`: local keys only, as the mirror answers them. */
async function logSelection(filter: readonly string[]) {
  let filters;
  try {
    filters = parseFilters("containers", filter);
  } catch (error) {
    throw new DocklensError("INVALID_CONFIG", `history.logs.filter: ${(error as Error).message}`);
  }
  if (!filtersAreLocal(filters))
    throw new DocklensError(
      "INVALID_CONFIG",
      "history.logs.filter: expected keys id, name, label, status, exited or health",
    );
  return (await compileContainerFilters(filters)) ?? (() => true);
}

/**
 * The store reads use: serve's own; else (a CLI one-off) the file a serve writes, opened for
 * reading; else none, with the line that says so.
 */
export async function historyReader(
  options: CoreOptions & { dataDir?: string },
): Promise<{ store?: HistoryStore; close(): Promise<void>; note?: string }> {
  const running = historyOf(options.fleet);
  if (running) return { store: running.store, close: async () => {} };
  const settings = historySettings(options.fleet);
  const path = settings ? historyPath(settings.path, options.dataDir) : undefined;
  if (!path || !existsSync(path))
    return { close: async () => {}, note: "no history here: `docklens serve` records it" };
  const store = await openSqliteStore({ path, readOnly: true });
  const { problem } = store.status();
  return { store, close: () => store.close(), ...(problem ? { note: `history: ${problem}` } : {}) };
}
