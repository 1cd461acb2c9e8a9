import { Chalk, supportsColor, type ChalkInstance } from "chalk";
import Table from "cli-table3";
import { compareStrings } from "../../core/compare.ts";

/**
 * Colour only on a TTY, and never under `NO_COLOR`; as many colours as the terminal has, as chalk
 * finds them (`COLORTERM=truecolor`, a 256-colour `TERM`), 16 at least; `FORCE_COLOR` still
 * wins for tests.
 */
export function createColors(
  stream: NodeJS.WriteStream = process.stdout,
  env = process.env,
): ChalkInstance {
  if (env.FORCE_COLOR !== undefined) return new Chalk();
  const level = supportsColor ? supportsColor.level : 0;
  return new Chalk({ level: stream.isTTY && !env.NO_COLOR ? level || 1 : 0 });
}

/**
 * A table without borders, like `docker ps`: an upper-case header and columns padded to the
 * widest cell as the terminal draws it. cli-table3 measures with string-width, whose emoji list
 * package.json's `overrides` keeps current (its own knew those of 2019 and measured 🦭 one column).
 */
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
  // As many columns as the longest line: a row is never cut to the header.
  const columns = Math.max(head.length, ...rows.map((row) => row.length));
  table.push(...rows.map((row) => Array.from({ length: columns }, (_, i) => row[i] ?? "")));
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

/**
 * A number as Go's `%.<precision>g` prints it, as docker's sizes are: `precision` significant
 * digits, trailing zeros dropped, an exponent from 10^precision on (`1e+03`), and an exact tie
 * rounded to even (`1.125` → `1.12`), where JavaScript's `toPrecision` would round it up.
 */
export function goFloat(value: number, precision: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  // 25 digits more than asked tell an exact tie from a near one (a double has at most 17).
  const [mantissa, power] = Math.abs(value)
    .toExponential(precision + 25)
    .split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  let exponent = Number(power);
  let head = BigInt(digits.slice(0, precision));
  const rest = digits.slice(precision);
  if (rest[0]! > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || head % 2n === 1n)))
    head++;
  let kept = String(head);
  if (kept.length > precision) {
    kept = kept.slice(0, precision);
    exponent++;
  }
  const sign = value < 0 ? "-" : "";
  const trim = (int: string, frac: string) =>
    /[1-9]/.test(frac) ? `${int}.${frac.replace(/0+$/, "")}` : int;
  if (exponent < -4 || exponent >= precision) {
    const power = `${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    return `${sign}${trim(kept[0]!, kept.slice(1))}e${power}`;
  }
  if (exponent < 0) return `${sign}${trim("0", "0".repeat(-exponent - 1) + kept)}`;
  return `${sign}${trim(kept.slice(0, exponent + 1), kept.slice(exponent + 1))}`;
}

/** `size` divided down by `base` to below it, and the unit it is then in (go-units' getSizeAndUnit). */
function sizeAndUnit(size: number, base: number, units: string[]): [number, string] {
  let unit = 0;
  while (size >= base && unit < units.length - 1) {
    size /= base;
    unit++;
  }
  return [size, units[unit]!];
}

const DECIMAL_UNITS = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
const BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];

/**
 * Bytes in decimal units, as go-units' `HumanSizeWithPrecision` (`precision` 3: `docker images`'
 * SIZE, `docker stats`' NET I/O and BLOCK I/O, `1.98MB`) and `HumanSize` (4, the default:
 * `docker system df`, `2.146GB`) print them. Empty for what is not a number.
 */
export function humanSize(bytes: number | undefined, precision = 4): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
  const [size, unit] = sizeAndUnit(bytes, 1000, DECIMAL_UNITS);
  return `${goFloat(size, precision)}${unit}`;
}

/**
 * Bytes in binary units, as go-units' `BytesSize` prints them: `docker stats`' MEM USAGE / LIMIT
 * and `docker info`'s Total Memory (`23.54GiB`). Empty for what is not a number.
 */
export function bytesSize(bytes: number | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
  const [size, unit] = sizeAndUnit(bytes, 1024, BINARY_UNITS);
  return `${goFloat(size, 4)}${unit}`;
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

/**
 * A time as Go's `time.Time.String` prints it in the local zone, as docker's `CreatedAt` fields
 * do: `2026-11-23 22:25:29 +0000 UTC` (whole seconds, as the engine's lists give them).
 */
export function goTime(date: Date | string | number): string {
  const time = new Date(date);
  if (Number.isNaN(time.getTime())) return "";
  const two = (n: number) => String(n).padStart(2, "0");
  const offset = -time.getTimezoneOffset();
  const zone = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
    .formatToParts(time)
    .find((part) => part.type === "timeZoneName")?.value;
  return (
    `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())} ` +
    `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())} ` +
    `${offset < 0 ? "-" : "+"}${two(Math.floor(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)} ` +
    `${offset === 0 && /^(GMT|UTC)$/.test(zone ?? "") ? "UTC" : zone}`
  );
}
