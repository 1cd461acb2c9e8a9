// The reads of history (D26): `/history/containers`, `/history/events`, `/history/logs`,
// `/history/stats`, each over the clusters the caller may see (a scoped token's: the fleet it is
// given holds no other), each item tagged with its cluster as the live reads tag theirs.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { DURATION, durationMs } from "../config/duration.ts";
import { compileGrep } from "../containers/grep.ts";
import { resolveClusters, type CoreOptions } from "../engine/fleet.ts";
import { invalidInput } from "../errors.ts";
import { historyReader } from "./history.ts";
import type { HistoryStore, StoredContainerRef, StoredStatsFigures } from "./store.ts";

/** A cluster as the reads tag their items. */
type ClusterRef = { id: number; name: string };

/** Options of the history reads: the clusters asked (all the caller sees when none), a window. */
export interface HistoryReadOptions extends CoreOptions {
  clusters?: readonly string[];
  /** Unix seconds. */
  since?: number;
  until?: number;
  /** `--data-dir` of a CLI one-off reading serve's file. */
  dataDir?: string;
}

/** What every history body may carry: why there is nothing (nothing records here). */
interface Noted {
  note?: string;
}

/** An item of `GET /history/containers`: a container's last record. */
export interface HistoryContainer {
  cluster: ClusterRef;
  id: string;
  name: string;
  image: string;
  state: string;
  exitCode: number | null;
  /** When the record was taken (RFC 3339). */
  recorded: string;
  /** When the engine destroyed it; `null` while it exists. */
  removed: string | null;
  /** Its inspect body when recorded, secrets redacted. */
  inspect: Record<string, unknown>;
}

/** Body of `GET /history/containers`. */
export interface HistoryContainersResult extends Noted {
  containers: HistoryContainer[];
}

/** Body of `GET /history/events`: each engine event as `/events` sends it. */
export interface HistoryEventsResult extends Noted {
  events: Array<Record<string, unknown> & { cluster: ClusterRef }>;
}

/** A line of `GET /history/logs`. */
export interface HistoryLogLine {
  cluster: ClusterRef;
  container: { id: string; name: string };
  /** RFC 3339, to the microsecond. */
  time: string;
  stream: "stdout" | "stderr";
  text: string;
}

/** Body of `GET /history/logs`. */
export interface HistoryLogsResult extends Noted {
  lines: HistoryLogLine[];
}

/** Body of `GET /history/stats`: a series per container, a point per step. */
export interface HistoryStatsResult extends Noted {
  series: Array<{
    cluster: ClusterRef;
    container: { id: string; name: string };
    points: Array<StoredStatsFigures & { time: string }>;
  }>;
}

/** Events a read returns at most, by default: the newest. */
const EVENTS_TAIL = 1000;
/** Lines a read returns at most: a bound of the body, as the live logs' 16 MiB is. */
const MAX_LINES = 100_000;

/**
 * The last record of each container that history holds, removed ones too (only those with
 * `removed`), newest first; by `name` when given.
 * @example
 * ```ts
 * const { containers } = await listHistoryContainers({ fleet, name: "web" }); // GET /history/containers?name=web
 * ```
 */
export async function listHistoryContainers(
  options: HistoryReadOptions & { name?: string; removed?: boolean },
): Promise<HistoryContainersResult> {
  return withStore<HistoryContainersResult>(
    options,
    { containers: [] },
    async (store, clusters) => {
      const records = await store.containers({ clusters: [...clusters.keys()], ...pick(options) });
      return {
        containers: records
          .filter((record) => !options.removed || record.removed !== null)
          .map(({ cluster, time, removed, ...record }) => ({
            cluster: clusters.get(cluster)!,
            ...record,
            recorded: new Date(time).toISOString(),
            removed: removed === null ? null : new Date(removed).toISOString(),
          })),
      };
    },
  );
}

/**
 * The engine events history holds, oldest first, of one `container` when named; the last `tail`.
 * @example
 * ```ts
 * const { events } = await readHistoryEvents({ fleet, container: "web", since: Date.now() / 1000 - 86_400 });
 * ```
 */
export async function readHistoryEvents(
  options: HistoryReadOptions & { container?: string; tail?: number | "all" },
): Promise<HistoryEventsResult> {
  return withStore<HistoryEventsResult>(options, { events: [] }, async (store, clusters) => {
    const limit = options.tail === "all" || options.tail === undefined ? EVENTS_TAIL : options.tail;
    const events = await store.events({
      clusters: [...clusters.keys()],
      ...window(options),
      limit,
      ...pick(options),
    });
    return {
      events: events.map(({ cluster, event }) => ({ ...event, cluster: clusters.get(cluster)! })),
    };
  });
}

/**
 * The lines history holds of every container that had the name (or id) `container`, oldest
 * first, each tagged with its container: those `grep` (RE2) matches, the last `tail`.
 * @example
 * ```ts
 * const { lines } = await readHistoryLogs({ fleet, container: "web", grep: "panic", tail: 50 });
 * for (const line of lines) console.log(line.container.id, line.time, line.text);
 * ```
 */
export async function readHistoryLogs(
  options: HistoryReadOptions & { container: string; grep?: string; tail?: number | "all" },
): Promise<HistoryLogsResult> {
  const match = options.grep === undefined ? undefined : await compileGrep(options.grep);
  return withStore<HistoryLogsResult>(options, { lines: [] }, async (store, clusters) => {
    const tail =
      options.tail === "all" || options.tail === undefined
        ? MAX_LINES
        : Math.min(options.tail, MAX_LINES);
    const lines = await store.logs({
      clusters: [...clusters.keys()],
      container: options.container,
      ...window(options),
      tail,
      ...(match ? { match } : {}),
    });
    return {
      lines: lines.map(({ cluster, id, name, timeUs, stream, text }) => ({
        cluster: clusters.get(cluster)!,
        container: { id, name },
        time: microTime(timeUs),
        stream,
        text,
      })),
    };
  });
}

/**
 * The stats samples history holds, a series per container, averaged over each `step` (default 1m).
 * @example
 * ```ts
 * const { series } = await readHistoryStats({ fleet, container: "web", step: "5m" });
 * ```
 */
export async function readHistoryStats(
  options: HistoryReadOptions & { container?: string; step?: string },
): Promise<HistoryStatsResult> {
  const step = options.step ?? "1m";
  if (!DURATION.test(step) || durationMs(step) < 1000)
    invalidInput("step", "expected a duration of at least 1s, such as 15s, 5m or 1h");
  return withStore<HistoryStatsResult>(options, { series: [] }, async (store, clusters) => {
    const series = await store.stats({
      clusters: [...clusters.keys()],
      ...window(options),
      stepMs: durationMs(step),
      ...pick(options),
    });
    return {
      series: series.map(({ container, points }) => ({
        cluster: clusters.get(container.cluster)!,
        container: ref(container),
        points: points.map(({ time, ...figures }) => ({
          time: new Date(time).toISOString(),
          ...figures,
        })),
      })),
    };
  });
}

/** Run `read` over the store reads use and the clusters asked, or answer `empty` with its note. */
async function withStore<T extends Noted>(
  options: HistoryReadOptions,
  empty: T,
  read: (store: HistoryStore, clusters: Map<number, ClusterRef>) => Promise<T>,
): Promise<T> {
  const asked = resolveClusters(options.clusters, options);
  const clusters = new Map(
    asked.map((cluster: ClusterConfig) => [cluster.id, { id: cluster.id, name: cluster.name }]),
  );
  const reader = await historyReader(options);
  try {
    if (!reader.store) return { ...empty, note: reader.note };
    const result = await read(reader.store, clusters);
    return reader.note ? { ...result, note: reader.note } : result;
  } finally {
    await reader.close();
  }
}

/** The window of `options`, in ms. */
function window(options: HistoryReadOptions): { since?: number; until?: number } {
  return {
    ...(options.since === undefined ? {} : { since: options.since * 1000 }),
    ...(options.until === undefined ? {} : { until: options.until * 1000 }),
  };
}

/** `name` and `container` when given. */
function pick(options: { name?: string; container?: string }) {
  return {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.container === undefined ? {} : { container: options.container }),
  };
}

const ref = ({ id, name }: StoredContainerRef) => ({ id, name });

/** µs since the epoch as RFC 3339 with six fractional digits. */
function microTime(timeUs: number): string {
  const iso = new Date(Math.floor(timeUs / 1000)).toISOString();
  return `${iso.slice(0, 23)}${String(timeUs % 1000).padStart(3, "0")}Z`;
}
