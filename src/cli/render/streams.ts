// What arrives line by line or sample by sample: logs, attach, stats, events; and top's table.
import type { ChalkInstance } from "chalk";
import { compareStrings } from "../../core/compare.ts";
import type { AttachLine } from "../../core/containers/attach.ts";
import type { OutputLine } from "../../core/containers/container-output.ts";
import type { ReadLogsResult } from "../../core/containers/logs.ts";
import type { ListProcessesResult } from "../../core/containers/processes.ts";
import type { StatsSample, StatsSummary } from "../../core/containers/stats.ts";
import type { ClusterEvent, EventStatus } from "../../core/clusters/events.ts";
import type { ReachNote, ReachStatus } from "../../core/history/history-reach.ts";
import { toJsonText } from "../../core/json.ts";
import { bytesSize, humanSize, renderTable, shortId } from "./format.ts";
import { formatRows, type RowKind } from "./formatted.ts";
import type { TemplateData } from "./template-run.ts";

/** A line of logs or attach output: its time when asked for; stderr lines marked, red on a TTY. */
export function outputLine(line: OutputLine | AttachLine, colors: ChalkInstance): string {
  const time = "time" in line && line.time ? `${colors.dim(line.time)} ` : "";
  return line.stream === "stderr"
    ? `${time}${colors.red(`[stderr] ${line.text}`)}`
    : `${time}${line.text}`;
}

/** `docklens logs`: the lines read, or (with --follow) each line as it comes. */
export function logsView(result: ReadLogsResult | OutputLine, colors: ChalkInstance): string {
  return "lines" in result
    ? result.lines.map((line) => outputLine(line, colors)).join("\n")
    : outputLine(result, colors);
}

/**
 * `docklens stats`: a table per sample. With `stream` on a terminal, each sample redraws the last
 * one in place, as docker stats does.
 */
export function createStatsView(
  stream: boolean,
): (sample: StatsSample, colors: ChalkInstance) => string {
  const draw = inPlace(stream);
  return (sample, colors) => draw(statsTable(sample, colors));
}

/**
 * Each table it is given, redrawn over the last one in place when `stream` on a terminal (the
 * cursor goes up as many lines as the last one had, and clears to the end).
 */
export function inPlace(stream: boolean): (table: string) => string {
  let drawn = 0;
  return (table) => {
    const redraw = stream && process.stdout.isTTY && drawn ? `\u001b[${drawn}A\u001b[J` : "";
    drawn = table.split("\n").length;
    return redraw + table;
  };
}

/** The columns of `docker stats`. */
export const STATS_HEAD = [
  "CONTAINER ID",
  "NAME",
  "CPU %",
  "MEM USAGE / LIMIT",
  "MEM %",
  "NET I/O",
  "BLOCK I/O",
  "PIDS",
];

function statsTable(sample: StatsSample, colors: ChalkInstance): string {
  const { summary, raw } = sample;
  const id = typeof raw.id === "string" ? raw.id : "";
  const name = (typeof raw.name === "string" ? raw.name : "").replace(/^\//, "");
  return renderTable(STATS_HEAD, [statsRow(id, name, summary)], colors);
}

/** A row of {@link STATS_HEAD}: a container's figures as `docker stats` prints them. */
export function statsRow(id: string, name: string, summary: StatsSummary): string[] {
  const percent = (value: number) => `${value.toFixed(2)}%`;
  // docker's units per column: binary for memory (BytesSize), decimal for I/O (HumanSizeWithPrecision 3).
  const pair = (a: number, b: number, size = (bytes: number) => humanSize(bytes, 3)) =>
    `${size(a)} / ${size(b)}`;
  return [
    shortId(id),
    name,
    percent(summary.cpuPercent),
    pair(summary.memoryUsage, summary.memoryLimit, bytesSize),
    percent(summary.memoryPercent),
    pair(summary.netRx, summary.netTx),
    pair(summary.blockRead, summary.blockWrite),
    String(summary.pids),
  ];
}

/** `docklens top`: the engine's titles and rows, as `docker top` prints them. */
export function processesTable(result: ListProcessesResult, colors: ChalkInstance): string {
  return renderTable(result.Titles, result.Processes, colors);
}

/**
 * `docklens events`: a line per event as `docker events` prints it, after its cluster:
 * `2026-11-22T10:00:00.123456789Z alpha container start 0b5b110b833d (image=…, name=web)`; a
 * cluster that drops out or comes back says so.
 */
/** The fields of docker's events.Message, as `docker events --format` templates name them. */
const EVENT_KIND: RowKind = {
  type: "events.Message",
  headers: Object.fromEntries(
    ["Status", "ID", "From", "Type", "Action", "Actor", "Scope", "Time", "TimeNano", "Cluster"].map(
      (field) => [field, field.toUpperCase()],
    ),
  ),
};

/**
 * `docklens events`: each event as {@link eventLine} prints it, or with `format` as docker events
 * --format prints it: a Go template on docker's events.Message (`{{.Actor.Attributes.name}}`,
 * `{{.Cluster}}` besides), `json` the event as the engine sent it (with its cluster). Status
 * lines (an engine that went or came back) print as they do without.
 */
export function createEventView(
  format: string | undefined,
): (item: EventItem, colors: ChalkInstance) => string {
  if (format === undefined) return eventLine;
  return (item, colors) => {
    if (isStatus(item) || isNote(item)) return eventLine(item, colors);
    if (/^\s*(json|\{\{\s*json\s+\.\s*\}\})\s*$/.test(format)) return toJsonText(item);
    const event = item;
    const data: TemplateData = {
      Status: (event.status as string | undefined) ?? "",
      ID: (event.id as string | undefined) ?? "",
      From: (event.from as string | undefined) ?? "",
      Type: (event.Type as string | undefined) ?? "",
      Action: (event.Action as string | undefined) ?? "",
      Actor: (event.Actor as TemplateData | undefined) ?? { ID: "", Attributes: {} },
      Scope: (event.scope as string | undefined) ?? "",
      Time: Number(event.time ?? 0),
      // Nanoseconds past 2^53: whole, as the engine wrote them.
      TimeNano: String((event.timeNano as number | bigint | undefined) ?? 0),
      Cluster: event.cluster.name,
    };
    return formatRows(format, [data], EVENT_KIND, () => eventLine(item, colors));
  };
}

/** What `docklens events` prints: events, status lines, and why history had nothing to add. */
export type EventItem = ClusterEvent | ReachStatus | ReachNote;

/** An event as `docklens events` prints it: time, cluster, type, action, actor and attributes. */
export function eventLine(item: EventItem, colors: ChalkInstance): string {
  if (isNote(item)) return colors.yellow(item.note);
  if (isStatus(item)) {
    if (item.status === "truncated")
      return colors.yellow(
        item.history
          ? `${item.cluster.name}: history and the engine's events reach back only to ` +
              `${isoSeconds(item.oldest ?? 0)}; earlier ones are not shown`
          : `${item.cluster.name}: the engine's events reach back only to ${isoSeconds(item.oldest ?? 0)}` +
              ", the last it keeps; earlier ones are not shown",
      );
    const text = `${item.cluster.name}: ${item.status}${item.error ? ` (${item.error.message})` : ""}`;
    return item.status === "disconnected" ? colors.yellow(text) : colors.green(text);
  }
  const event = item as ClusterEvent & {
    Type?: string;
    Action?: string;
    time?: number;
    timeNano?: number | bigint;
    Actor?: { ID?: string; Attributes?: Record<string, string> };
  };
  const nanos =
    event.timeNano !== undefined
      ? BigInt(event.timeNano)
      : BigInt(event.time ?? 0) * 1_000_000_000n;
  const seconds = new Date(Number(nanos / 1_000_000n)).toISOString().slice(0, 19);
  const time = `${seconds}.${String(nanos % 1_000_000_000n).padStart(9, "0")}Z`;
  const attributes = Object.entries(event.Actor?.Attributes ?? {})
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([key, value]) => `${key}=${value}`)
    .join(", ");
  const what = [event.cluster.name, event.Type ?? "", event.Action ?? "", event.Actor?.ID ?? ""];
  return `${colors.dim(time)} ${what.join(" ")}${attributes ? ` (${attributes})` : ""}`;
}

const STATUSES: ReadonlySet<unknown> = new Set(["disconnected", "reconnected", "truncated"]);

/** A status line of the event stream, rather than an engine's event (which carries a Type). */
function isStatus(item: EventItem): item is ReachStatus {
  return !("Type" in item) && STATUSES.has((item as EventStatus).status);
}

/** The line that says nothing records here, rather than an event. */
function isNote(item: EventItem): item is ReachNote {
  return !("Type" in item) && "note" in item && !("cluster" in item);
}

/** Unix seconds as an event line's time reads, to the second: `2026-11-22T10:00:00Z`. */
function isoSeconds(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}
