// `docklens alerts`: what the rules fire now (with --all, what resolved lately too), one row each.
import type { ChalkInstance } from "chalk";
import type { CheckAlertsResult } from "../../core/alerts/check-alerts.ts";
import { renderTable, truncate } from "./format.ts";

/**
 * One row per alert: its rule, cluster, container (or subject) and cause; a line when none fires.
 * With `--all`, its state and times first.
 */
export function alertsTable(result: CheckAlertsResult, colors: ChalkInstance): string {
  const all = result.truncated !== undefined;
  if (!result.alerts.length)
    return all ? "no alerts fire, and none resolved in the last hour" : "no alerts fire";
  const rows = result.alerts.map((alert) => [
    ...(all ? [alert.state, isoSeconds(alert.startsAt), isoSeconds(alert.endsAt)] : []),
    alert.rule,
    alert.when,
    alert.cluster?.name ?? "",
    alert.container?.name ?? (alert.value === undefined ? "" : String(alert.value)),
    truncate(alert.cause, 100),
  ]);
  const head = ["RULE", "WHEN", "CLUSTER", "CONTAINER", "CAUSE"];
  return renderTable(all ? ["STATE", "STARTED", "RESOLVED", ...head] : head, rows, colors);
}

/** An ISO time to the second, `2026-11-22T10:00:00Z`; '' for none. */
function isoSeconds(iso: string | undefined): string {
  return iso ? `${iso.slice(0, 19)}Z` : "";
}
