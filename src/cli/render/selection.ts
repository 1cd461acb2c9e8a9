// What many containers at once show: merged logs, stats of every container, disk usage.
import type { ChalkInstance } from "chalk";
import type { AllDiskUsageResult, DiskUsageResult } from "../../core/clusters/disk-usage.ts";
import type { AllStatsResult } from "../../core/containers/all-stats.ts";
import type { ClusterRef } from "../../core/engine/across-clusters.ts";
import type { LogStatusLine } from "../../core/containers/follow-merged-logs.ts";
import type { MergedLogLine, ReadMergedLogsResult } from "../../core/containers/merged-logs.ts";
import { humanSize, renderTable } from "./format.ts";
import { inPlace, outputLine, STATS_HEAD, statsRow } from "./streams.ts";
import { psTable } from "./containers.ts";
import { imagesTable } from "./lists.ts";

/**
 * `docklens stats` of many containers: `docker stats` with a CLUSTER column, in the selection's
 * order (newest first, as docker stats lists them); with `stream` on a terminal each round
 * redraws the last one in place.
 */
export function createAllStatsView(
  stream: boolean,
): (result: AllStatsResult, colors: ChalkInstance) => string {
  const draw = inPlace(stream);
  return (result, colors) => {
    const rows = result.stats.map((item) => [
      item.cluster.name,
      ...statsRow(item.container.id, item.container.name, item.summary),
    ]);
    return draw(renderTable(["CLUSTER", ...STATS_HEAD], rows, colors));
  };
}

/** The 16-colour palette a container's prefix cycles through, as `docker compose logs` does. */
const PALETTE = ["cyan", "yellow", "green", "magenta", "blue", "redBright"] as const;
/** With 256 colours: bright, readable on dark and light backgrounds, far apart in hue. */
const PALETTE_256 = [
  39, 214, 76, 170, 33, 203, 43, 178, 135, 209, 69, 113, 205, 37, 172, 99, 161, 75, 184, 141,
];

/**
 * The colour of the `n`th container to appear: on a truecolor terminal a hue the golden angle
 * (137.5°) past the last, so that no two of a few dozen look alike; with 256 colours
 * {@link PALETTE_256}, else {@link PALETTE}, in turn.
 */
function nthColor(n: number, colors: ChalkInstance): ChalkInstance {
  if (colors.level >= 3) {
    const [r, g, b] = hslToRgb((n * 137.508) % 360, 0.65, 0.6);
    return colors.rgb(r, g, b);
  }
  if (colors.level === 2) return colors.ansi256(PALETTE_256[n % PALETTE_256.length]!);
  return colors[PALETTE[n % PALETTE.length]!];
}

/** An HSL colour (hue in degrees, saturation and lightness 0 to 1) as RGB bytes. */
function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

/**
 * `docklens logs` of a selection: each line after `cluster/name |` in a colour of its own
 * container (as many as the terminal has: {@link nthColor}),
 * as `docker compose logs` and stern print them; times with `timestamps`. A status line (a
 * container stopped, started, joined; a cluster that failed) is dim.
 */
export function createMergedLogsView(
  timestamps: boolean,
  ids = false,
): (item: ReadMergedLogsResult | MergedLogLine | LogStatusLine, colors: ChalkInstance) => string {
  // Each container its own colour, in the order they first appear, as docker compose logs does.
  const assigned = new Map<string, number>();
  const colorOf = (line: { cluster: { id: number }; container: { id: string } }) => {
    const key = `${line.cluster.id}/${line.container.id}`;
    if (!assigned.has(key)) assigned.set(key, assigned.size);
    return assigned.get(key)!;
  };
  const one = (item: MergedLogLine | LogStatusLine, colors: ChalkInstance): string => {
    const id = ids && item.container ? `@${item.container.id.slice(0, 12)}` : "";
    const who = `${item.cluster.name}/${item.container?.name ?? "*"}${id}`;
    const prefix = item.container
      ? nthColor(colorOf({ cluster: item.cluster, container: item.container }), colors)(`${who} |`)
      : `${who} |`;
    if ("status" in item) {
      const error = item.error ? `: ${item.error.message}` : "";
      return colors.dim(`${prefix} -- ${item.status}${error}`);
    }
    return `${prefix} ${outputLine(timestamps ? item : { ...item, time: null }, colors)}`;
  };
  return (item, colors) =>
    "lines" in item ? item.lines.map((line) => one(line, colors)).join("\n") : one(item, colors);
}

/** docker system df -v's images and containers (cli/command/formatter/disk_usage.go), with CLUSTER. */
const DF_IMAGES =
  "table {{.Cluster}}\\t{{.Repository}}\\t{{.Tag}}\\t{{.ID}}\\t{{.CreatedSince}}\\t{{.Size}}" +
  "\\t{{.SharedSize}}\\t{{.UniqueSize}}\\t{{.Containers}}";
const DF_CONTAINERS =
  "table {{.Cluster}}\\t{{.ID}}\\t{{.Image}}\\t{{.Command}}\\t{{.LocalVolumes}}\\t{{.Size}}" +
  "\\t{{.RunningFor}}\\t{{.Status}}\\t{{.Names}}";

/**
 * `docklens df`: the rows of `docker system df` with a CLUSTER column (one cluster's result names
 * its cluster in `cluster`); with `verbose`, each
 * cluster's images, containers and volumes after them, as `docker system df -v` lists them.
 */
export function diskUsageView(
  verbose: boolean,
): (
  result: (DiskUsageResult & { cluster?: ClusterRef }) | AllDiskUsageResult,
  colors: ChalkInstance,
) => string {
  return (result, colors) => {
    const clusters = "clusters" in result ? result.clusters : [result];
    const name = (entry: (typeof clusters)[number]) => entry.cluster?.name ?? "";
    const rows = clusters.flatMap((entry) =>
      entry.summary.map((row) => [
        name(entry),
        row.type,
        String(row.total),
        String(row.active),
        humanSize(row.size),
        `${humanSize(row.reclaimable)}${row.size > 0 ? ` (${Math.floor((row.reclaimable * 100) / row.size)}%)` : ""}`,
      ]),
    );
    const tables = [
      renderTable(["CLUSTER", "TYPE", "TOTAL", "ACTIVE", "SIZE", "RECLAIMABLE"], rows, colors),
    ];
    if (!verbose) return tables[0]!;
    // Each kind as docker system df -v lists it (its formatter's default tables), after CLUSTER;
    // the engine's Unix seconds as the lists give times.
    const created = (item: object) => {
      const at = (item as { Created?: unknown }).Created;
      return typeof at === "number" ? new Date(at * 1000).toISOString() : at;
    };
    const images = clusters.flatMap((entry) =>
      (entry.raw.Images ?? []).map((image) => ({
        ...image,
        Created: created(image),
        cluster: { name: name(entry) },
      })),
    ) as unknown as Parameters<typeof imagesTable>[0];
    const containers = clusters.flatMap((entry) =>
      (entry.raw.Containers ?? []).map((container) => ({
        ...container,
        Created: created(container),
        cluster: entry.cluster ?? { id: 0, name: "" },
      })),
    ) as unknown as Parameters<typeof psTable>[0];
    const volumes = clusters.flatMap((entry) =>
      (entry.raw.Volumes ?? []).map((volume) => {
        const item = volume as typeof volume & { Name?: string };
        return [
          name(entry),
          item.Name ?? "",
          String(Math.max(0, Number(volume.UsageData?.RefCount ?? 0))),
          humanSize(Math.max(0, Number(volume.UsageData?.Size ?? 0))),
        ];
      }),
    );
    tables.push(
      `Images space usage:\n\n${imagesTable(images, colors, { format: DF_IMAGES })}`,
      `Containers space usage:\n\n${psTable(containers, colors, { format: DF_CONTAINERS })}`,
      `Local Volumes space usage:\n\n${renderTable(["CLUSTER", "VOLUME NAME", "LINKS", "SIZE"], volumes, colors)}`,
    );
    return tables.join("\n\n");
  };
}
