// The Alerts view's rows from `/alerts`: firing first, then resolved; newest first in each
// (a firing alert by when it began, a resolved one by when it ended), each with the page's view
// of what it is about.
import type { RouteLocationRaw } from "vue-router";
import { eventTime, timeAgo } from "./format.ts";
import { windowAround } from "./history-window.ts";
import type { AlertItem } from "./types.ts";

/** How often the Alerts view (and the overview's figure) reads `/alerts` again. */
export const ALERTS_POLL_MS = 5000;

/** An alert as a row of the view. */
export interface AlertRow {
  id: string;
  state: AlertItem["state"];
  rule: string;
  when: string;
  cluster: string;
  container: string;
  cause: string;
  /** Milliseconds since the epoch, for the order; 0 when the server sent no time. */
  started: number;
  ended: number;
  startedText: string;
  endedText: string;
  /** The moments with their dates, for a time's title. */
  startedTitle: string;
  endedTitle: string;
  /** `3 minutes` for a resolved alert, '' for a firing one. */
  lasted: string;
  /** Where its container's name leads, or (with no container) its cause. */
  link: RouteLocationRaw | undefined;
  /** Its container's page over the minutes around it: the lines and stats history kept then. */
  recorded: RouteLocationRaw | undefined;
}

/** `1 minute`, `3 hours`, `12 seconds`: how long `from` to `to` is, in its largest unit. */
export function duration(from: number, to: number): string {
  if (to - from < 1000) return "under a second";
  return timeAgo(from, to).replace(/ ago$/, "");
}

/**
 * The view an alert is about: its container's page (by its full id, with the name it had, so a
 * replacement under that name is not taken for it), else what its trigger watches (drift, the
 * clusters), else its cluster's containers.
 */
export function alertLink(alert: AlertItem): RouteLocationRaw | undefined {
  const cluster = alert.cluster?.name;
  if (cluster && alert.container)
    return {
      name: "container",
      params: { cluster, name: alert.container.id },
      query: { name: alert.container.name },
    };
  if (alert.when === "drift") return { name: "drift" };
  if (alert.when === "engine-down") return { name: "clusters" };
  if (cluster) return { name: "containers", query: { cluster } };
}

/**
 * Its container's page with the window around it (five minutes before it began to five after it
 * ended, or now): there the page shows what history recorded then. None without a container or
 * a start.
 */
export function recordedLink(alert: AlertItem, started: number, ended: number) {
  const link = alertLink(alert);
  if (!alert.container || !started || !link || typeof link !== "object" || !("query" in link))
    return undefined;
  return { ...link, query: { ...link.query, ...windowAround(started, ended) } };
}

const timeOf = (iso: string | undefined) => {
  const at = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(at) ? at : 0;
};

/** The cause with its value, when the value says more than the cause already does. */
function causeOf(alert: AlertItem): string {
  const value = alert.value === undefined ? "" : String(alert.value);
  return value && !alert.cause.includes(value) ? `${alert.cause} (${value})` : alert.cause;
}

/** The rows of `alerts`, firing first, newest first in each; times worded against `now`. */
export function alertRows(alerts: readonly AlertItem[], now = Date.now()): AlertRow[] {
  const rows = alerts.map((alert): AlertRow => {
    const started = timeOf(alert.startsAt);
    const ended = alert.state === "resolved" ? timeOf(alert.endsAt) : 0;
    return {
      id: alert.id,
      state: alert.state,
      rule: alert.rule,
      when: alert.when,
      cluster: alert.cluster?.name ?? "",
      container: alert.container?.name ?? "",
      cause: causeOf(alert),
      started,
      ended,
      startedText: started ? timeAgo(started, now) : "",
      endedText: ended ? timeAgo(ended, now) : "",
      startedTitle: started ? eventTime(new Date(started)) : "",
      endedTitle: ended ? eventTime(new Date(ended)) : "",
      lasted: started && ended ? duration(started, ended) : "",
      link: alertLink(alert),
      recorded: recordedLink(alert, started, ended),
    };
  });
  const firing = (row: AlertRow) => (row.state === "firing" ? 0 : 1);
  return rows.sort(
    (a, b) => firing(a) - firing(b) || (b.ended || b.started) - (a.ended || a.started),
  );
}
