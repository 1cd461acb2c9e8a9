// `docklens history`: the containers the engines removed, a row each as `ps -a` shows live ones;
// `history logs`, each line with its container's name and id (several containers had the name);
// `history stats`, a row per container.
import type { ChalkInstance } from "chalk";
import type {
  HistoryContainersResult,
  HistoryEventsResult,
  HistoryLogsResult,
  HistoryStatsResult,
} from "../../core/history/history-reads.ts";
import { renderTable } from "./format.ts";
import { eventLine, STATS_HEAD, statsRow } from "./streams.ts";

/** One row per container: its cluster, id, image, exit code, when removed, name. */
export function historyTable(result: HistoryContainersResult, colors: ChalkInstance): string {
  const rows = result.containers.map((item) => [
    item.cluster.name,
    item.id.slice(0, 12),
    item.image,
    item.exitCode === null ? item.state : `${item.state} (${item.exitCode})`,
    item.removed ?? "",
    item.name,
  ]);
  return renderTable(
    ["CLUSTER", "CONTAINER ID", "IMAGE", "STATUS", "REMOVED", "NAMES"],
    rows,
    colors,
  );
}

/** Each line: its time, `cluster/name@id |`, its text. */
export function historyLogsView(result: HistoryLogsResult, colors: ChalkInstance): string {
  return result.lines
    .map((line) => {
      const who = `${line.cluster.name}/${line.container.name}@${line.container.id.slice(0, 12)}`;
      return `${colors.dim(line.time)} ${who} | ${line.text}`;
    })
    .join("\n");
}

/** Each event as `docklens events` prints it. */
export function historyEventsView(result: HistoryEventsResult, colors: ChalkInstance): string {
  return result.events.map((event) => eventLine(event, colors)).join("\n");
}

/** A row per container: its samples, its mean CPU and its highest memory in the window. */
export function historyStatsTable(result: HistoryStatsResult, colors: ChalkInstance): string {
  const rows = result.series.map(({ cluster, container, points }) => [
    cluster.name,
    container.id.slice(0, 12),
    container.name,
    String(points.length),
    `${(points.reduce((sum, point) => sum + point.cpuPercent, 0) / (points.length || 1)).toFixed(2)}%`,
    `${(Math.max(...points.map((point) => point.memoryUsage)) / 1024 ** 2).toFixed(1)}MiB`,
  ]);
  return renderTable(
    ["CLUSTER", "CONTAINER ID", "NAME", "STEPS", "CPU % (MEAN)", "MEM (MAX)"],
    rows,
    colors,
  );
}

/**
 * `docklens stats --since`: docker stats' columns, a row per container and step, oldest first,
 * after the step's time and the cluster.
 */
export function historyStatsRows(result: HistoryStatsResult, colors: ChalkInstance): string {
  const rows = result.series
    .flatMap(({ cluster, container, points }) =>
      points.map((point) => {
        const memoryPercent = point.memoryLimit ? (point.memoryUsage / point.memoryLimit) * 100 : 0;
        return [
          point.time,
          cluster.name,
          ...statsRow(container.id, container.name, { ...point, memoryPercent }),
        ];
      }),
    )
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return renderTable(["TIME", "CLUSTER", ...STATS_HEAD], rows, colors);
}
