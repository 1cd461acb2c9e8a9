// What the state rules fired and resolved lately, without a serve that watched it happen: the
// engines' container events of the last hour (the time `GET /alerts` keeps a resolved alert),
// replayed through the rules as serve would have followed them. The engine keeps only its last
// events (Docker: 256), and says when they do not reach back that far.
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { EngineFilters } from "../engine/filters.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { streamEvents, type ClusterEvent, type EventStatus } from "../clusters/events.ts";
import { matchesEventFilters } from "../hub/event-filter.ts";
import { AlertBook, alertId, KEEP_RESOLVED_MS, type Alert } from "./alert-book.ts";
import { alertLink } from "./alerts.ts";
import type { RuleScope } from "./rule-scope.ts";
import {
  containerAction,
  eventVerdict,
  restartLoop,
  STATE_TRIGGERS,
  type EventVerdict,
} from "./state-triggers.ts";

/** What {@link replayResolvedAlerts} found. */
export interface ReplayedAlerts {
  /** Alerts of the state rules that resolved within the last hour. */
  resolved: Alert[];
  /** Clusters whose engine's events reach back only to `oldest` (Unix seconds), short of an hour. */
  truncated: Array<{ cluster: ClusterRef; oldest: number }>;
}

/** Container list filters an event's attributes tell, as the event filter that tells them. */
const AS_EVENT_FILTER: Readonly<Record<string, string>> = {
  label: "label",
  name: "container",
  id: "container",
  ancestor: "image",
};

/**
 * The alerts of the state rules of `scopes` (exited, oom, unhealthy, restarting) that fired and
 * resolved within the last hour before `now`, from the engines' events. A rule chooses a
 * container by the labels, name, id and image its events carry (it may be removed since); a
 * rule that filters on more (`status`, `network`...) is left out, as its past cannot be told.
 */
export async function replayResolvedAlerts(
  scopes: readonly RuleScope[],
  options: CoreOptions & { url?: string },
  now = Date.now(),
): Promise<ReplayedAlerts> {
  const replayed = scopes
    .filter((scope) => STATE_TRIGGERS.has(scope.rule.when))
    .flatMap((scope) => {
      const filters = eventFiltersOf(scope);
      return filters ? [{ scope, filters }] : [];
    });
  const ids = new Set(replayed.flatMap(({ scope }) => scope.clusters.map((c) => String(c.id))));
  if (!ids.size) return { resolved: [], truncated: [] };
  const base = options.fleet.config.alerts?.url ?? options.url ?? "";
  const truncated: ReplayedAlerts["truncated"] = [];
  const events: ClusterEvent[] = [];
  const stream = await streamEvents({
    ...options,
    clusters: [...ids],
    since: (now - KEEP_RESOLVED_MS) / 1000,
    until: now / 1000,
    filters: { type: ["container"] },
  });
  for await (const item of stream) {
    if ("Type" in item) events.push(item);
    const { status, oldest } = item as EventStatus;
    if (status === "truncated") truncated.push({ cluster: item.cluster, oldest: oldest ?? 0 });
  }
  // A cluster that did not answer is said by the rules' own evaluation.
  events.sort((a, b) => timeOf(a) - timeOf(b));

  const book = new AlertBook();
  const deaths = new Map<string, number[]>();
  for (const event of events) {
    const seen = containerAction(event);
    if (!seen) continue;
    const at = timeOf(event);
    book.tick(at);
    for (const { scope, filters } of replayed) {
      const { rule } = scope;
      const cluster = event.cluster;
      const looks = scope.clusters.some((candidate) => candidate.id === cluster.id);
      if (!looks || !matchesEventFilters(event, filters)) continue;
      const container = { id: seen.id, name: seen.attributes.name ?? seen.id.slice(0, 12) };
      const condition = { rule: rule.name, when: rule.when, cluster, container };
      let verdict: EventVerdict = eventVerdict(rule.when, seen.action, seen.attributes);
      if (verdict && "died" in verdict) {
        const key = `${rule.name}\0${cluster.id}\0${seen.id}`;
        const loop = restartLoop(rule, deaths.get(key) ?? [], at);
        deaths.set(key, loop.times);
        verdict = loop.cause ? { fire: loop.cause } : undefined;
      }
      if (!verdict) continue;
      if ("resolve" in verdict) book.resolve(alertId(condition), at);
      else if ("fire" in verdict) {
        const link = alertLink(base, rule.when, { cluster, container, cause: "" });
        const quiet = rule.when === "restarting" ? { resolveAfterMs: rule.windowMs } : {};
        const timing = { cooldownMs: rule.cooldownMs, ...quiet };
        book.fire({ ...condition, ...verdict.fire, link }, timing, at);
      }
    }
  }
  book.tick(now);
  return { resolved: book.list().filter((alert) => alert.state === "resolved"), truncated };
}

/**
 * The event filter that chooses what `scope`'s container filters and project choose, when an
 * event's attributes can tell it; undefined when they cannot.
 */
function eventFiltersOf(scope: RuleScope): EngineFilters | undefined {
  const filters: EngineFilters = { type: ["container"] };
  for (const [key, values] of Object.entries(scope.filters ?? {})) {
    const as = AS_EVENT_FILTER[key];
    if (!as) return undefined;
    filters[as] = [...(filters[as] ?? []), ...values];
  }
  if (scope.project !== undefined)
    filters.label = [...(filters.label ?? []), `com.docker.compose.project=${scope.project}`];
  return filters;
}

/** An event's time in ms. */
function timeOf(event: ClusterEvent): number {
  const { timeNano, time } = event;
  if (typeof timeNano === "bigint") return Number(timeNano / 1_000_000n);
  if (typeof timeNano === "number") return timeNano / 1e6;
  return typeof time === "number" ? time * 1000 : 0;
}
