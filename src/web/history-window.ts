// The windows of history the page asks for: in its URLs (`?since=…&until=…`, an alert's link),
// and as `/history/*` take them (RFC 3339 or a duration before now), with a chart's step.
import type { LocationQuery, LocationQueryRaw } from "vue-router";
import { queryString } from "./format.ts";

/** A window of history, as the page's URL and `/history/*` take it: RFC 3339 or a duration. */
export interface HistoryWindow {
  since: string;
  /** '' for up to now. */
  until: string;
}

/** An RFC 3339 time to the second, as the page's URLs carry it. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

/** A live container's chart reaches this far back when no window is asked. */
const RECENT_MS = 6 * 3600_000;

/**
 * The window of a live container's chart: the last 6 hours, or since it was created when that
 * is later (a young container's few minutes get steps of seconds, not of 90 s).
 */
export function recentWindow(created: string, now = Date.now()): HistoryWindow & { span: string } {
  const at = Date.parse(created);
  return Number.isFinite(at) && at > now - RECENT_MS
    ? { since: iso(Math.min(at, now - 60_000)), until: "", span: "since it was created" }
    : { since: "6h", until: "", span: "the last 6 hours" };
}

/** Points a chart is given at most: the step is the window over this, in whole seconds. */
const POINTS = 240;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a duration (`6h`, `90s`), or of a window's span from its RFC 3339 ends. */
function spanSeconds(window: HistoryWindow, now: number): number {
  const point = (value: string) => {
    const duration = /^(\d+)(s|m|h|d)$/.exec(value);
    if (duration) return now - Number(duration[1]) * UNIT_SECONDS[duration[2]!]! * 1000;
    const at = Date.parse(value);
    return Number.isFinite(at) ? at : now;
  };
  return Math.max(1, (point(window.until || "0s") - point(window.since)) / 1000);
}

/** The `step` of `/history/stats` that gives a window about {@link POINTS} points: `15s`, `90s`. */
export function statsStep(window: HistoryWindow, now = Date.now()): string {
  return `${Math.max(1, Math.ceil(spanSeconds(window, now) / POINTS))}s`;
}

/** The window a page's URL asks (`?since=…&until=…`, an alert's), or undefined. */
export function windowOf(query: LocationQuery): HistoryWindow | undefined {
  const since = queryString(query.since);
  return since ? { since, until: queryString(query.until) } : undefined;
}

/** Around an alert: from `margin` before it began to `margin` after it ended (or now). */
export function windowAround(startsAt: number, endsAt: number, marginMs = 300_000) {
  const query: LocationQueryRaw = { since: iso(startsAt - marginMs) };
  if (endsAt) query.until = iso(endsAt + marginMs);
  return query;
}
