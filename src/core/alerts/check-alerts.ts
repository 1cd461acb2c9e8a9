// `docklens alerts`: the config's rules evaluated once, now, without a serve: what they would
// fire, for cron and CI jobs (the command exits 1 when anything fires).
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import { alertId, type Alert } from "./alert-book.ts";
import { alertLink } from "./alerts.ts";
import { evaluateRule } from "./evaluate.ts";
import { scopeOf } from "./rule-scope.ts";

/** Body of `docklens alerts --json`. */
export interface CheckAlertsResult {
  /** What fires now, in the rules' order; as `GET /alerts` would show it. */
  alerts: Alert[];
  /** Clusters a rule could not look at (an `engine-down` rule's are its alerts). */
  unanswered: Array<{ rule: string; cluster: ClusterRef }>;
}

/**
 * Evaluate every rule of the config now: a state rule on the containers as listed, a log rule on
 * the lines of its `window`, a cpu or memory rule on one sample (its `for` is not waited for),
 * `drift`, `missing` and `engine-down` as serve evaluates them. `oom` needs the event, and fires
 * only in serve. `INVALID_CONFIG` when the config has no rules, or one cannot be used.
 * @example
 * ```ts
 * const { alerts } = await checkAlerts({ fleet });
 * if (alerts.length) console.log(`${alerts.length} alerts fire`);
 * ```
 */
export async function checkAlerts(
  options: CoreOptions & { url?: string },
): Promise<CheckAlertsResult> {
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
  const evaluations = await Promise.all(scopes.map((scope) => evaluateRule(scope, options, now)));
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
  return { alerts, unanswered };
}
