// `docklens logs` and `events` reaching into history with `since` (D26): what serve recorded,
// then what the engine still has, each said once. A line the engine still holds is the engine's:
// the recorded copy of it (the same container, microsecond and stream) is left out; an event the
// engine's backlog no longer holds comes from history (core/clusters/event-backlog.ts).
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { EventStatus, ClusterEvent } from "../clusters/events.ts";
import { findContainer, type ContainerRef } from "../containers/containers.ts";
import { followContainerLogs, readContainerLogs, type LogsQuery } from "../containers/logs.ts";
import type { MergedLogLine } from "../containers/merged-logs.ts";
import { compareTimes, timeKey } from "../containers/reorder.ts";
import type { EngineFilters } from "../engine/filters.ts";
import { resolveCluster, type CoreOptions } from "../engine/fleet.ts";
import { isDocklensError } from "../errors.ts";
import { matchesEventFilters } from "../hub/event-filter.ts";
import { readHistoryEvents, readHistoryLogs, type HistoryLogLine } from "./history-reads.ts";

/** Options of {@link readLogsReach} and {@link followLogsReach}: a live read's, `since` required. */
export interface LogsReachOptions extends CoreOptions {
  query: Partial<LogsQuery> & { since?: number };
  /** `--data-dir` of a CLI one-off reading serve's file. */
  dataDir?: string;
}

/** Body of {@link readLogsReach}: the lines in time order, each with its container. */
export interface LogsReachResult {
  lines: MergedLogLine[];
  /** Why history had nothing to add (nothing records here), or why the engine had nothing. */
  note?: string;
  /** Always empty: the shape of a selection's merged logs, printed the same way. */
  errors: [];
}

/** A line said aside while following: why history had nothing to add. */
export interface ReachNote {
  note: string;
}

/**
 * The lines of every container that was `input.name` on its cluster within the query's window,
 * removed ones included, each tagged with its container: history's, then the live container's
 * that history does not hold; the last `tail`. A name neither history nor the engine knows is
 * the engine's `CONTAINER_NOT_FOUND`.
 * @example
 * ```ts
 * const since = Date.now() / 1000 - 172_800; // two days
 * const { lines } = await readLogsReach({ cluster: "prod", name: "web" }, { fleet, query: { since } });
 * ```
 */
export async function readLogsReach(
  input: ContainerRef,
  options: LogsReachOptions,
): Promise<LogsReachResult> {
  const { live: _, ...result } = await reachLines(input, options);
  return result;
}

/**
 * As {@link readLogsReach}, then the live container's new lines as it writes them, until it stops
 * or `options.signal` aborts. Why history had nothing to add comes first, as a {@link ReachNote}.
 */
export async function followLogsReach(
  input: ContainerRef,
  options: LogsReachOptions,
): Promise<AsyncGenerator<MergedLogLine | ReachNote>> {
  const { lines, note, live } = await reachLines(input, options);
  // From the last line of the live container read (that microsecond again: left out below).
  const last = lines.findLast((line) => line.container.id === live?.id)?.time;
  const since = last ? Math.floor(timeKey(last)[0]) / 1000 : options.query.since;
  const engine = live
    ? await followContainerLogs(
        { cluster: input.cluster, name: live.id },
        {
          ...options,
          // `-n 0`: new lines only, as without history.
          query: {
            ...options.query,
            since,
            tail: options.query.tail === 0 ? 0 : "all",
            timestamps: true,
            follow: true,
          },
        },
      )
    : undefined;
  return (async function* () {
    if (note) yield { note };
    yield* lines;
    if (!engine || !live) return;
    const fresh = unseen(lines, live.id);
    const from = timeKey(last ?? null);
    for await (const line of engine)
      if (compareTimes(timeKey(line.time), from) >= 0 && fresh(line))
        yield { ...line, ...live.tags };
  })();
}

/** History's lines and the live container's it does not hold, in time order; the last `tail`. */
async function reachLines(input: ContainerRef, options: LogsReachOptions) {
  const recorded = await recordedLines(input, options);
  const { live, note } = await liveContainer(input, options, recorded.lines.length > 0);
  const lines = [...recorded.lines];
  if (live) {
    const { lines: engine } = await readContainerLogs(
      { cluster: input.cluster, name: live.id },
      { ...options, query: { ...options.query, timestamps: true, follow: false } },
    );
    const fresh = unseen(recorded.lines, live.id);
    lines.push(...engine.filter(fresh).map((line) => ({ ...line, ...live.tags })));
  }
  lines.sort((a, b) => compareTimes(timeKey(a.time), timeKey(b.time)));
  const tail = options.query.tail ?? 100;
  // At most one: where nothing records, nothing is recorded, and an engine away is thrown.
  const said = recorded.note ?? note;
  return {
    lines: tail === "all" ? lines : lines.slice(Math.max(0, lines.length - tail)),
    errors: [] as [],
    ...(said ? { note: said } : {}),
    live,
  };
}

/** History's lines of the name in the window, as merged lines; its note when it has none. */
async function recordedLines(input: ContainerRef, options: LogsReachOptions) {
  const { since, until } = options.query;
  const cluster = resolveCluster(input.cluster, options);
  const result = await readHistoryLogs({
    ...options,
    clusters: [String(cluster.id)],
    container: input.name,
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    tail: "all",
  });
  const stream = options.query.stream ?? "both";
  return {
    lines: result.lines.filter((line) => stream === "both" || line.stream === stream).map(toMerged),
    note: result.note,
  };
}

/**
 * The container the engine has under the name now; none when history has lines of the name and
 * the engine has no such container (removed), or is away (then `note` says so).
 */
async function liveContainer(
  input: ContainerRef,
  options: CoreOptions,
  recorded: boolean,
): Promise<{ live?: LiveContainer; note?: string }> {
  try {
    const target = await findContainer(input, options);
    const cluster: ClusterRef = { id: target.cluster.id, name: target.cluster.name };
    const container = { id: target.id, name: target.name.replace(/^\//, "") };
    return { live: { id: target.id, tags: { cluster, container } } };
  } catch (error) {
    if (!recorded || !isDocklensError(error)) throw error;
    if (error.code === "CONTAINER_NOT_FOUND") return {};
    if (error.code.startsWith("ENGINE_"))
      return { note: `${error.message}; the lines history holds are shown` };
    throw error;
  }
}

/** The container a name is on its engine now, and the tags of its lines. */
interface LiveContainer {
  id: string;
  tags: { cluster: ClusterRef; container: { id: string; name: string } };
}

/**
 * A test of the engine's lines of container `id`: false for one history holds (its microsecond
 * and stream, counted: two lines of one microsecond are two).
 */
function unseen(recorded: readonly MergedLogLine[], id: string) {
  const held = new Map<string, number>();
  const keyOf = (line: { time: string | null; stream: string }) => {
    const [ms, nanos] = timeKey(line.time);
    return `${ms}.${Math.floor(nanos / 1000)} ${line.stream}`;
  };
  for (const line of recorded)
    if (line.container.id === id) held.set(keyOf(line), (held.get(keyOf(line)) ?? 0) + 1);
  return (line: { time: string | null; stream: string }) => {
    const key = keyOf(line);
    const count = held.get(key) ?? 0;
    if (count === 0) return true;
    held.set(key, count - 1);
    return false;
  };
}

const toMerged = ({ cluster, container, time, stream, text }: HistoryLogLine): MergedLogLine => ({
  cluster,
  container,
  time,
  stream,
  text,
});

/** Events a gap is filled with at most: ten times Docker's whole backlog, and more. */
const GAP_EVENTS = 100_000;

/** A `truncated` line that says how far history and the engine reach together. */
export type ReachStatus = EventStatus & { history?: true };

/** Options of {@link fillEventsGap}. */
export interface FillEventsOptions extends CoreOptions {
  /** Unix seconds: the `since` the stream was asked. */
  since: number;
  filters?: EngineFilters;
  dataDir?: string;
}

/**
 * `events`, where a cluster's engine no longer holds its events back to `since` (its
 * `truncated` line), filled with those history holds from `since` up to the engine's oldest; the
 * `truncated` line stays only for what history does not cover (it then says how far history
 * reaches), or where nothing records (then once, with the note that says so).
 * @example
 * ```ts
 * const events = fillEventsGap(await streamEvents({ fleet, since }), { fleet, since });
 * ```
 */
export async function* fillEventsGap(
  events: AsyncIterable<ClusterEvent | EventStatus>,
  options: FillEventsOptions,
): AsyncGenerator<ClusterEvent | ReachStatus | ReachNote> {
  let noted = false;
  for await (const item of events) {
    const status = "Type" in item ? undefined : (item as EventStatus);
    if (status?.status !== "truncated" || status.oldest === undefined) {
      yield item;
      continue;
    }
    const oldest = status.oldest;
    const { since, filters, ...rest } = options;
    const window = { ...rest, clusters: [String(status.cluster.id)], tail: GAP_EVENTS };
    const gap = await readHistoryEvents({ ...window, since, until: oldest });
    if (gap.note) {
      if (!noted) yield { note: gap.note };
      noted = true;
      yield status;
      continue;
    }
    // The engine's oldest is its own: history's copy of it (and of what follows) is not sent twice.
    const before = gap.events.filter(
      (event) => eventSeconds(event) < oldest && matchesEventFilters(event, filters),
    );
    yield* before;
    // History reaches `since` when it holds an event from before it.
    const earlier = await readHistoryEvents({ ...window, until: since, tail: 1 });
    if (earlier.events.length) continue;
    const reach = gap.events[0] ? eventSeconds(gap.events[0]) : oldest;
    yield { ...status, oldest: reach, history: true };
  }
}

/** An event's time in Unix seconds, to the microsecond. */
function eventSeconds(event: Record<string, unknown>): number {
  const { timeNano, time } = event;
  if (typeof timeNano === "bigint") return Number(timeNano / 1000n) / 1e6;
  if (typeof timeNano === "number") return Math.round(timeNano / 1000) / 1e6;
  if (typeof timeNano === "string" && /^\d+$/.test(timeNano))
    return Number(BigInt(timeNano) / 1000n) / 1e6;
  return typeof time === "number" ? time : 0;
}
