import { Chalk, type ChalkInstance } from "chalk";
import Table from "cli-table3";
import { compareStrings } from "../../core/compare.ts";

/** Colour only on a TTY, and never under `NO_COLOR`; `FORCE_COLOR` still wins for tests. */
export function createColors(
  stream: NodeJS.WriteStream = process.stdout,
  env = process.env,
): ChalkInstance {
  if (env.FORCE_COLOR !== undefined) return new Chalk();
  return new Chalk({ level: stream.isTTY && !env.NO_COLOR ? 3 : 0 });
}

/** A table without borders, like `docker ps`: an upper-case header and padded columns. */
export function renderTable(head: string[], rows: string[][], colors: ChalkInstance): string {
  const table = new Table({
    head: head.map((title) => colors.bold(title)),
    chars: {
      top: "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      bottom: "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      left: "",
      "left-mid": "",
      mid: "",
      "mid-mid": "",
      right: "",
      "right-mid": "",
      middle: "   ",
    },
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    wordWrap: false,
  });
  table.push(...rows);
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

/** Two columns of labels and values, for the detail views. */
export function renderFields(
  fields: Array<[string, string | undefined]>,
  colors: ChalkInstance,
): string {
  const shown = fields.filter(
    (field): field is [string, string] => field[1] !== undefined && field[1] !== "",
  );
  const width = Math.max(...shown.map(([label]) => label.length));
  return shown
    .map(
      ([label, value]) =>
        `${colors.bold(label.padEnd(width))}  ${value.replace(/\n/g, `\n${" ".repeat(width + 2)}`)}`,
    )
    .join("\n");
}

/** Where a cluster's engine is: `host:port` (`[::1]:2375` for IPv6), or the socket path alone. */
export function formatHostPort(host: string, port: number): string {
  return port ? `${host.includes(":") ? `[${host}]` : host}:${port}` : host;
}

/** A long engine id cut to the 12 characters `docker ps` shows. */
export function shortId(id: string | undefined): string {
  return (id ?? "").replace(/^sha256:/, "").slice(0, 12);
}

/** Cut `text` to `max` characters with an ellipsis, as `docker ps` does for commands. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * How long ago `date` was, in the words of the docker CLI (`units.HumanDuration`):
 * "Less than a second ago", "About a minute ago", "3 hours ago", "2 weeks ago".
 */
export function timeAgo(date: Date | string | number, now: number = Date.now()): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, (now - then) / 1000);
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"} ago`;
  if (seconds < 1) return "Less than a second ago";
  if (seconds < 60) return plural(Math.floor(seconds), "second");
  const minutes = seconds / 60;
  if (minutes < 2) return "About a minute ago";
  if (minutes < 60) return plural(Math.floor(minutes), "minute");
  const hours = Math.round(seconds / 3600);
  if (hours === 1) return "About an hour ago";
  if (hours < 48) return plural(hours, "hour");
  if (hours < 24 * 7 * 2) return plural(Math.floor(hours / 24), "day");
  if (hours < 24 * 30 * 2) return plural(Math.floor(hours / 24 / 7), "week");
  if (hours < 24 * 365 * 2) return plural(Math.floor(hours / 24 / 30), "month");
  return plural(Math.floor(hours / 24 / 365), "year");
}

/** Bytes as the docker CLI shows sizes: `1.5GiB`, `512MiB`. */
export function formatBytes(bytes: number | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1).replace(/\.0+$/, "")}${units[unit]}`;
}

/** Sizes as `docker system df` shows them (`units.HumanSize`): decimal units, four significant digits, `2.1MB`. */
export function humanSize(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit++;
  }
  return `${Number(size.toPrecision(4))}${units[unit]}`;
}

/** `key=value` pairs of a label map, sorted, comma-separated (or one a line, with `"\n"`). */
export function formatLabels(
  labels: Record<string, string> | null | undefined,
  separator = ",",
): string {
  return Object.entries(labels ?? {})
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([key, value]) => (value === "" ? key : `${key}=${value}`))
    .join(separator);
}
