// Alerting in serve: the config's rules evaluated on the engine hub's events (one subscription per
// cluster, shared with everything else that follows it), their alerts kept in an AlertBook and
// told to the receivers through the delivery queues. Events, not polling, for the state rules.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { fleetAcrossReads, type CoreOptions, type Fleet } from "../engine/fleet.ts";
import { subscribeEvents, type EngineEvent, type HubSubscription } from "../hub/event-hub.ts";
import {
  AlertBook,
  alertId,
  type Alert,
  type AlertCondition,
  type AlertNotice,
} from "./alert-book.ts";
import type { AlertRule } from "../config/alerts-schema.ts";
import { createDelivery, type Delivery, type DeliveryOptions } from "./delivery.ts";
import { readReceiver } from "./receivers.ts";
import { listScope, scopeChooses, scopeHas, scopeOf, containerName } from "./rule-scope.ts";
import { containerAction, eventVerdict, listedVerdict, STATE_TRIGGERS } from "./state-triggers.ts";

/** Options of {@link startAlerts}. */
export interface StartAlertsOptions extends CoreOptions {
  /** The page's address, for links, when the config's `alerts.url` sets none (serve's URL). */
  url?: string;
  /** Told of each alert that fires or resolves and of each failed delivery (serve logs them). */
  log?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  delivery?: DeliveryOptions;
}

/** The alerts of a running serve. */
export interface AlertsService {
  /** Firing and recently resolved alerts, firing first. */
  list(): Alert[];
  /** Deliveries by receiver and result, for `/metrics`. */
  deliveries: Delivery["counts"];
  close(): void;
}

/** Alertmanager forgets a firing alert not sent again within its resolve_timeout (5 m by default). */
const ALERTMANAGER_RESEND_MS = 60_000;

const services = new WeakMap<object, AlertsService>();

/** The alerts service running over `fleet` (or the fleet a scoped view was made of), if any. */
export function alertsOf(fleet: Fleet): AlertsService | undefined {
  return services.get(fleetAcrossReads(fleet));
}

/** Body of `GET /alerts`. */
export interface ListAlertsResult {
  alerts: Alert[];
}

/**
 * Firing and recently resolved alerts of the clusters `options.fleet` holds (a scoped token's
 * clusters), as `GET /alerts` answers; none when serve runs no rules.
 * @example
 * ```ts
 * const { alerts } = listAlerts({ fleet }); // GET /alerts
 * for (const alert of alerts) console.log(alert.state, alert.rule, alert.cause);
 * ```
 */
export function listAlerts(options: CoreOptions): ListAlertsResult {
  const ids = new Set(options.fleet.config.clusters.map((cluster) => cluster.id));
  const all = alertsOf(options.fleet)?.list() ?? [];
  return { alerts: all.filter((alert) => alert.cluster === null || ids.has(alert.cluster.id)) };
}

/** The page's view of an alert's subject: its container, else its cluster, else `path`. */
export function alertLink(
  base: string,
  cluster: { name: string } | null,
  container: { name: string } | null,
  path = "/",
): string {
  const at = (part: string) => encodeURIComponent(part);
  if (cluster && container)
    return `${base}/#/cluster/${at(cluster.name)}/container/${at(container.name)}`;
  return `${base}/#${path}`;
}

/**
 * Start the config's alert rules over `options.fleet` (a live one: serve's), until `close`.
 * Throws `INVALID_CONFIG` naming the rule or receiver that cannot be used.
 * @example
 * ```ts
 * const fleet = await loadFleet({ live: true });
 * const alerts = startAlerts({ fleet, url: "http://127.0.0.1:8080", log: console.error });
 * // later
 * alerts.close();
 * ```
 */
export function startAlerts(options: StartAlertsOptions): AlertsService {
  const { fleet } = options;
  const config = fleet.config.alerts ?? { receivers: [], rules: [] };
  const receivers = config.receivers.map((receiver) => readReceiver(receiver, options.env));
  const scopes = config.rules.map((rule) => scopeOf(rule, options));
  const base = config.url ?? options.url ?? "";
  const log = options.log ?? (() => {});
  const delivery = createDelivery(receivers, {
    onFailure: (receiver, problem, wait) =>
      log(`receiver "${receiver}" failed (${problem}); trying again in ${wait} ms`),
    ...options.delivery,
  });
  const book = new AlertBook();
  const rules = new Map(config.rules.map((rule) => [rule.name, rule]));
  const tell = (notices: Array<AlertNotice | undefined>) => {
    for (const notice of notices) {
      if (!notice) continue;
      const { alert } = notice;
      const where = [alert.cluster?.name, alert.container?.name].filter(Boolean).join("/");
      log(`alert ${alert.state}: ${alert.rule}${where ? ` ${where}` : ""}: ${alert.cause}`);
      delivery.send(rules.get(alert.rule)?.notify ?? [], [notice]);
    }
  };
  const fire = (
    rule: AlertRule,
    condition: Omit<AlertCondition, "rule" | "when" | "link">,
    quiet?: number,
  ) => {
    const link = alertLink(
      base,
      condition.cluster,
      condition.container,
      rule.when === "drift" ? "/drift" : "/",
    );
    tell([
      book.fire(
        { ...condition, rule: rule.name, when: rule.when, link },
        { cooldownMs: rule.cooldownMs, ...(quiet !== undefined ? { resolveAfterMs: quiet } : {}) },
        Date.now(),
      ),
    ]);
  };
  const resolve = (id: string) => tell([book.resolve(id, Date.now())]);

  const stateScopes = scopes.filter((scope) => STATE_TRIGGERS.has(scope.rule.when));
  const downScopes = scopes.filter((scope) => scope.rule.when === "engine-down");
  const deaths = new Map<string, number[]>();

  /** A gap or the first list: what each state rule sees now, and the end of what it no longer sees. */
  const relist = async (cluster: ClusterConfig) => {
    const ref = { id: cluster.id, name: cluster.name };
    for (const scope of stateScopes.filter((candidate) => scopeHas(candidate, cluster))) {
      const narrowed = { ...scope, clusters: [cluster] };
      const { containers, errors } = await listScope(narrowed, options).catch(() => ({
        containers: [],
        errors: [{}],
      }));
      if (errors.length) continue;
      const seen = new Set<string>();
      for (const item of containers) {
        const verdict = listedVerdict(scope.rule.when, item);
        if (!verdict) continue;
        const container = containerName(item);
        seen.add(alertId({ rule: scope.rule.name, cluster: ref, container }));
        fire(scope.rule, { cluster: ref, container, ...verdict }, restartQuiet(scope.rule));
      }
      // `oom` and `restarting` end by their own events and times, not by a list.
      if (scope.rule.when === "oom" || scope.rule.when === "restarting") continue;
      for (const alert of book.firingOf(scope.rule.name, cluster.id))
        if (!seen.has(alert.id)) resolve(alert.id);
    }
  };

  const onEvent = async (cluster: ClusterConfig, event: EngineEvent) => {
    const seen = containerAction(event);
    if (!seen) return;
    const ref = { id: cluster.id, name: cluster.name };
    for (const scope of stateScopes) {
      if (!scopeHas(scope, cluster)) continue;
      const verdict = eventVerdict(scope.rule.when, seen.action, seen.attributes);
      if (!verdict) continue;
      const id = alertId({
        rule: scope.rule.name,
        cluster: ref,
        container: { id: seen.id, name: "" },
      });
      if ("resolve" in verdict) {
        resolve(id);
        continue;
      }
      let cause = "fire" in verdict ? verdict.fire : undefined;
      if ("died" in verdict) cause = countDeath(scope.rule, `${cluster.id}\0${seen.id}`);
      if (!cause) continue;
      const chosen = await scopeChooses(scope, cluster, seen.id, options).catch(() => undefined);
      if (chosen)
        fire(
          scope.rule,
          { cluster: ref, container: { id: chosen.id, name: chosen.name }, ...cause },
          restartQuiet(scope.rule),
        );
    }
  };

  /** A restart loop: the rule's count of deaths within its window. */
  const countDeath = (rule: AlertRule, key: string) => {
    const now = Date.now();
    const times = [...(deaths.get(`${rule.name}\0${key}`) ?? []), now].filter(
      (time) => time > now - rule.windowMs,
    );
    deaths.set(`${rule.name}\0${key}`, times);
    if (times.length < rule.restarts) return undefined;
    return {
      cause: `restarted ${times.length} times in ${Math.round(rule.windowMs / 1000)} s`,
      value: times.length,
    };
  };

  const watched = new Map<number, ClusterConfig>();
  for (const scope of [...stateScopes, ...downScopes])
    for (const cluster of scope.clusters) watched.set(cluster.id, cluster);
  const subscriptions: HubSubscription[] = [...watched.values()].map((cluster) => {
    const ref = { id: cluster.id, name: cluster.name };
    return subscribeEvents(cluster, { fleet }, (signal) => {
      if (signal.kind === "event") void onEvent(cluster, signal.event);
      else if (signal.kind === "up") {
        for (const scope of downScopes.filter((candidate) => scopeHas(candidate, cluster)))
          resolve(alertId({ rule: scope.rule.name, cluster: ref, container: null }));
        void relist(cluster);
      } else
        for (const scope of downScopes.filter((candidate) => scopeHas(candidate, cluster)))
          fire(scope.rule, {
            cluster: ref,
            container: null,
            cause: `engine unreachable: ${signal.error.message}`,
          });
    });
  });

  const ticker = setInterval(() => tell(book.tick(Date.now())), 1000).unref();
  const resend = setInterval(() => {
    for (const receiver of receivers.filter((candidate) => candidate.kind === "alertmanager")) {
      const firing = book
        .firing()
        .filter((alert) => rules.get(alert.rule)?.notify.includes(receiver.name))
        .map((alert) => ({ alert, ...subjectOf(alert.id) }));
      delivery.send([receiver.name], firing);
    }
  }, ALERTMANAGER_RESEND_MS).unref();
  const subjectOf = (id: string) => {
    const subject = book.subjectOf(id);
    return subject ? { subject } : {};
  };

  const service: AlertsService = {
    list: () => book.list(),
    deliveries: () => delivery.counts(),
    close() {
      clearInterval(ticker);
      clearInterval(resend);
      for (const subscription of subscriptions) subscription.close();
      delivery.close();
      services.delete(fleetAcrossReads(fleet));
    },
  };
  services.set(fleetAcrossReads(fleet), service);
  return service;
}

/** A restart loop's alert ends when its window passes without a death. */
function restartQuiet(rule: AlertRule): number | undefined {
  return rule.when === "restarting" ? rule.windowMs : undefined;
}
