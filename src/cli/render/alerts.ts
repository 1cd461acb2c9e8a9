// `docklens alerts`: what the rules fire now, one row each.
import type { ChalkInstance } from "chalk";
import type { CheckAlertsResult } from "../../core/alerts/check-alerts.ts";
import { renderTable, truncate } from "./format.ts";

/** One row per alert: its rule, cluster, container (or subject) and cause; a line when none fires. */
export function alertsTable(result: CheckAlertsResult, colors: ChalkInstance): string {
  if (!result.alerts.length) return "no alerts fire";
  const rows = result.alerts.map((alert) => [
    alert.rule,
    alert.when,
    alert.cluster?.name ?? "",
    alert.container?.name ?? (alert.value === undefined ? "" : String(alert.value)),
    truncate(alert.cause, 100),
  ]);
  return renderTable(["RULE", "WHEN", "CLUSTER", "CONTAINER", "CAUSE"], rows, colors);
}
