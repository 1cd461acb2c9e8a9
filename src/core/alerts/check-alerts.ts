// `docklens alerts`: the config's rules evaluated once, now, without a serve: what they would
// fire, for cron and CI jobs (the command exits 1 when anything fires).
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import { alertId, compareAlerts, type Alert } from "./alert-book.ts";
import { alertLink } from "./alerts.ts";
import { evaluateRule } from "./evaluate.ts";
import { replayResolvedAlerts, type ReplayedAlerts } from "./replay-alerts.ts";
import { scopeOf } from "./rule-scope.ts";

/** Options of {@link checkAlerts}. */
export interface CheckAlertsOptions extends CoreOptions {
  /** The page's address, for links, when the config's `alerts.url` sets none. */
  url?: string;
  /** Also what resolved within the last hour, as `GET /alerts` lists it ({@link replayResolvedAlerts}). */
  all?: boolean;
}

/** Body of `docklens alerts --json`. */
export interface CheckAlertsResult {
  /**
   * What fires now, in the rules' order; with `all`, then what resolved within the last hour, in
   * the order of `GET /alerts` (firing first, the newest first).
   */
  alerts: Alert[];
  /** Clusters a rule could not look at (an `engine-down` rule's are its alerts). */
  unanswered: Array<{ rule: string; cluster: ClusterRef }>;
  /** With `all`: clusters whose engine's events reach back only to `oldest` (Unix seconds). */
  truncated?: ReplayedAlerts["truncated"];
}

/**
 * Evaluate every rule of the config now: a state rule on the containers as listed, a log rule on
 * the lines of its `window`, a cpu or memory rule on one sample (its `for` is not waited for),
 * `drift`, `missing` and `engine-down` as serve evaluates them. `oom` needs the event, and fires
 * only in serve. With `all`, also the state rules' alerts that resolved within the last hour,
 * replayed from the engines' events. `INVALID_CONFIG` when the config has no rules, or one
 * cannot be used.
 * @example
 * ```ts
 * const { alerts } = await checkAlerts({ fleet });
 * if (alerts.length) console.log(`${alerts.length} alerts fire`);
 * ```
 */
export async function checkAlerts(options: CheckAlertsOptions): Promise<CheckAlertsResult> {
  const config = options.fleet.config.alerts;
  if (!config?.rules.length)
    throw new DocklensError(
      "INVALID_CONFIG",
      `the config ${options.fleet.config.source ?? "(none found)"} has no alerts.rules`,
    );
  const base = config.url ?? options.url ?? "";
  const scopes = config.rules.map((rule) => scopeOf(rule, options));
  const now = Date.now();
  const startsAt = new Date(now).toISOString();
  const [evaluations, replayed] = await Promise.all([
    Promise.all(scopes.map((scope) => evaluateRule(scope, options, now))),
    options.all ? replayResolvedAlerts(scopes, options, now) : undefined,
  ]);
  const alerts: Alert[] = [];
  const unanswered: CheckAlertsResult["unanswered"] = [];
  evaluations.forEach(({ seen, answered }, index) => {
    const { rule, clusters } = scopes[index]!;
    for (const one of seen) {
      const { subject: _, ...fields } = one;
      alerts.push({
        id: alertId({ rule: rule.name, ...one }),
        rule: rule.name,
        when: rule.when,
        state: "firing",
        startsAt,
        ...fields,
        link: alertLink(base, rule.when, one),
      });
    }
    for (const cluster of clusters)
      if (!answered.some((ref) => ref.id === cluster.id))
        unanswered.push({ rule: rule.name, cluster: { id: cluster.id, name: cluster.name } });
  });
  if (!replayed) return { alerts, unanswered };
  // An alert firing now is listed once, firing, as serve's book keeps it.
  const firing = new Set(alerts.map((alert) => alert.id));
  const resolved = replayed.resolved.filter((alert) => !firing.has(alert.id));
  return {
    alerts: [...alerts, ...resolved].sort(compareAlerts),
    unanswered,
    truncated: replayed.truncated,
  };
}
