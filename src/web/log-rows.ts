// The rows of the Logs view: each line of `/logs` (or status line) made once, as it arrives, into
// what the virtual list draws, and kept in a bounded buffer (a page left open follows for days).
import { ansiSegments, type Segment } from "./ansi.ts";
import type { ErrorBody, LogStatusLine, MergedLogLine, SelectionLine } from "./types.ts";

/** Colours for the containers' prefixes (`.c0` … in styles), each readable in light and dark. */
export const PALETTE_SIZE = 10;

/** A row of the Logs view: a container's line, or a status line (`stopped`, `joined`, …). */
export interface LogRow {
  n: number;
  /** `cluster/container`, the prefix. */
  source: string;
  /** The prefix's colour class, one per container (the palette's in turn). */
  colour: string;
  stream: "stdout" | "stderr" | "status";
  time: string;
  text: string;
  segments: Segment[];
}

/**
 * An item of the `/logs` stream: a line, a status line, the stream's last `{ error }`, or (with
 * `newest`, first) how many containers it follows of how many matched.
 */
export type LogItem = MergedLogLine | LogStatusLine | SelectionLine | { error: ErrorBody };

/** Makes rows of items, giving each container the next colour of the palette when first seen. */
export function rowMaker(): (item: MergedLogLine | LogStatusLine) => LogRow {
  const colours = new Map<string, string>();
  let n = 0;
  return (item) => {
    const key = `${item.cluster.id}/${item.container?.id ?? ""}`;
    let colour = colours.get(key);
    if (!colour) colours.set(key, (colour = `c${colours.size % PALETTE_SIZE}`));
    const source = `${item.cluster.name}/${item.container?.name ?? "*"}`;
    if ("status" in item) {
      const why = item.error ? `: ${item.error.code}: ${item.error.message}` : "";
      const text = `— ${item.status}${why}`;
      return { n: n++, source, colour, stream: "status", time: item.time, text, segments: [] };
    }
    const text = item.text;
    return {
      n: n++,
      source,
      colour,
      stream: item.stream,
      time: item.time ?? "",
      text,
      segments: ansiSegments(text),
    };
  };
}

/** `rows` then `more`, keeping only the newest `max`. */
export function appendBounded<T>(rows: T[], more: T[], max: number): T[] {
  const next = rows.concat(more);
  return next.length > max ? next.slice(next.length - max) : next;
}

/** The rows as the downloaded text: the engine's time, the prefix, the stream, the line. */
export function rowsAsText(rows: LogRow[]): string {
  return rows.map((row) => `${row.time} ${row.source} ${row.stream} ${row.text}\n`).join("");
}

/** `HH:MM:SS.mmm` of an RFC 3339 time, in the page's time zone ('' when there is none). */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return "";
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const clock = [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => pad(part));
  return `${clock.join(":")}.${pad(date.getMilliseconds(), 3)}`;
}
