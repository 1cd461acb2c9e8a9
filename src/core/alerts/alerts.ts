// Alerting in serve: the config's rules followed by the watchers (events, not polling, for the
// state rules), their alerts kept in an AlertBook, each change told to the rule's receivers
// through the delivery queues, one per receiver.
import type { AlertTrigger } from "../config/alert-triggers.ts";
import { fleetAcrossReads, type CoreOptions, type Fleet } from "../engine/fleet.ts";
import { AlertBook, alertId, type Alert, type AlertNotice } from "./alert-book.ts";
import { createDelivery, type Delivery, type DeliveryOptions } from "./delivery.ts";
import type { RuleEvaluation, Seen } from "./evaluate.ts";
import { onceEvery, type OnceEvery } from "./once-every.ts";
import { readReceiver } from "./receivers.ts";
import { scopeOf, type RuleScope } from "./rule-scope.ts";
import { watchRules } from "./watchers.ts";

/** Options of {@link startAlerts}. */
export interface StartAlertsOptions extends CoreOptions {
  /** The page's address, for links, when the config's `alerts.url` sets none (serve's URL). */
  url?: string;
  /** Told of each alert that fires or resolves and of each failed delivery (serve logs them). */
  log?: (message: string) => void;
  /** Where `{ env: NAME }` receivers are read; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  delivery?: DeliveryOptions;
}

/** The alerts of a running serve. */
export interface AlertsService {
  /** Firing and recently resolved alerts, firing first. */
  list(): Alert[];
  /** The clusters a rule looks at, by rule name: an alert of no cluster is seen by who sees them all. */
  clustersOf(rule: string): readonly number[];
  /** Deliveries by receiver and result, for `/metrics`. */
  deliveries: Delivery["counts"];
  /** Notices dropped from full receiver queues, by receiver, for `/metrics`. */
  dropped: Delivery["dropped"];
  /** Event lookups that failed (the event was lost), by rule, for `/metrics`. */
  lookupFailures(): Array<{ rule: string; count: number }>;
  close(): void;
}

/** Lost events are logged this often at most, per rule. */
const LOOKUP_LOG_MS = 60_000;

/** Alertmanager forgets a firing alert not sent again within its resolve_timeout (5 m by default). */
const ALERTMANAGER_RESEND_MS = 60_000;

/** Rules whose alerts end by their own events and times, not by a list that no longer shows them. */
const ENDED_BY_THEMSELVES: ReadonlySet<AlertTrigger> = new Set(["oom", "restarting", "log"]);

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
  const service = alertsOf(options.fleet);
  return { alerts: service ? service.list().filter(seenBy(service, options.fleet)) : [] };
}

/** Whether a view of the fleet sees an alert: its cluster's, or (none) every cluster of its rule. */
export function seenBy(service: AlertsService, fleet: Fleet): (alert: Alert) => boolean {
  const ids = new Set(fleet.config.clusters.map((cluster) => cluster.id));
  return (alert) =>
    alert.cluster
      ? ids.has(alert.cluster.id)
      : service.clustersOf(alert.rule).every((id) => ids.has(id));
}

/**
 * The page's view of an alert: its container's, the drift view, or the clusters. A container is
 * linked by its full id (a replacement under its name is another container), with the name it had
 * then, so the page can say when that container is gone and which one has the name now.
 */
export function alertLink(base: string, when: AlertTrigger, seen: Seen): string {
  const at = encodeURIComponent;
  const { cluster, container } = seen;
  if (cluster && container)
    return `${base}/#/cluster/${at(cluster.name)}/container/${at(container.id)}?name=${at(container.name)}`;
  return `${base}/#/${when === "drift" ? "drift" : ""}`;
}

/**
 * The config's receivers with their URLs read and its rules with their selections resolved:
 * `INVALID_CONFIG` naming the receiver or rule that cannot be used. serve checks them so before
 * it listens.
 * @example
 * ```ts
 * const { scopes } = readAlertRules({ fleet }); // throws on a rule naming an unknown cluster
 * console.log(scopes.map((scope) => scope.rule.name));
 * ```
 */
export function readAlertRules(options: CoreOptions & { env?: NodeJS.ProcessEnv }) {
  const config = options.fleet.config.alerts ?? { receivers: [], rules: [] };
  return {
    receivers: config.receivers.map((receiver) => readReceiver(receiver, options.env)),
    scopes: config.rules.map((rule) => scopeOf(rule, options)),
  };
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
  const { receivers, scopes } = readAlertRules(options);
  const base = config.url ?? options.url ?? "";
  const log = options.log ?? (() => {});
  const intervals = new Map(config.rules.map((rule) => [rule.name, rule.groupIntervalMs]));
  const delivery = createDelivery(receivers, {
    onFailure: (receiver, problem, wait) =>
      log(`receiver "${receiver}" failed (${problem}); trying again in ${wait} ms`),
    onDropped: (receiver, count) =>
      log(`receiver "${receiver}": its queue is full; ${count} notices dropped`),
    groupIntervalMs: (rule) => intervals.get(rule) ?? 0,
    ...options.delivery,
  });
  const lookups = new Map<string, { count: number; log: OnceEvery; last?: string }>();
  const lookupFailed = (scope: RuleScope, cluster: { name: string }, error: Error) => {
    const name = scope.rule.name;
    let failures = lookups.get(name);
    if (!failures) {
      const tally: { count: number; log: OnceEvery; last?: string } = {
        count: 0,
        log: onceEvery(LOOKUP_LOG_MS, (n) =>
          log(
            `rule "${name}": ${n} events lost, their containers could not be read (${tally.last})`,
          ),
        ),
      };
      lookups.set(name, (failures = tally));
    }
    failures.count++;
    failures.last = `${cluster.name}: ${error.message}`;
    failures.log.add();
  };
  const book = new AlertBook();
  const notify = new Map(config.rules.map((rule) => [rule.name, rule.notify]));
  const tell = (notices: Array<AlertNotice | undefined>) => {
    for (const notice of notices) {
      if (!notice) continue;
      const { alert } = notice;
      const where = [alert.cluster?.name, alert.container?.name].filter(Boolean).join("/");
      log(`alert ${alert.state}: ${alert.rule}${where ? ` ${where}` : ""}: ${alert.cause}`);
      delivery.send(notify.get(alert.rule) ?? [], [notice]);
    }
  };
  const fire = ({ rule }: RuleScope, seen: Seen, quietMs?: number) => {
    const link = alertLink(base, rule.when, seen);
    const timing = { cooldownMs: rule.cooldownMs, ...(quietMs ? { resolveAfterMs: quietMs } : {}) };
    tell([book.fire({ ...seen, rule: rule.name, when: rule.when, link }, timing, Date.now())]);
  };
  const end = (id: string) => tell([book.resolve(id, Date.now())]);
  const quietOf = ({ rule }: RuleScope) =>
    rule.when === "restarting"
      ? rule.windowMs
      : rule.when === "log"
        ? rule.resolveAfterMs
        : undefined;

  const reconcile = (scope: RuleScope, { seen, answered }: RuleEvaluation) => {
    const ids = new Set<string>();
    for (const one of seen) {
      ids.add(alertId({ rule: scope.rule.name, ...one }));
      fire(scope, one, quietOf(scope));
    }
    if (ENDED_BY_THEMSELVES.has(scope.rule.when)) return;
    const asked = new Set(answered.map((cluster) => cluster.id));
    for (const alert of book.firingOf(scope.rule.name))
      if (!ids.has(alert.id) && (alert.cluster ? asked.has(alert.cluster.id) : asked.size))
        end(alert.id);
  };

  const stop = watchRules(scopes, options, {
    fire,
    reconcile,
    end: (scope, cluster, container) =>
      end(
        alertId({
          rule: scope.rule.name,
          cluster: {
            id: typeof cluster === "number" ? cluster : cluster.id,
            name: "",
          },
          container: container === null ? null : { id: container, name: "" },
        }),
      ),
    lookupFailed,
    followed: ({ rule, clusters: now }) => {
      const ids = new Set(now.map((cluster) => cluster.id));
      for (const alert of book.firingOf(rule.name))
        if (alert.cluster && !ids.has(alert.cluster.id)) end(alert.id);
    },
    log,
  });

  const ticker = setInterval(() => tell(book.tick(Date.now())), 1000).unref();
  const resend = setInterval(() => {
    const firing = book.firing();
    for (const receiver of receivers.filter((candidate) => candidate.kind === "alertmanager")) {
      const notices = firing
        .filter((alert) => notify.get(alert.rule)?.includes(receiver.name))
        .map((alert) => ({ alert, ...subjectOf(alert.id) }));
      delivery.send([receiver.name], notices);
    }
  }, ALERTMANAGER_RESEND_MS).unref();
  const subjectOf = (id: string) => {
    const subject = book.subjectOf(id);
    return subject ? { subject } : {};
  };
  // The scopes' clusters follow the fleet's (watchers.ts).
  const byRule = new Map(scopes.map((scope) => [scope.rule.name, scope]));

  const service: AlertsService = {
    list: () => book.list(),
    clustersOf: (rule) => byRule.get(rule)?.clusters.map((cluster) => cluster.id) ?? [],
    deliveries: () => delivery.counts(),
    dropped: () => delivery.dropped(),
    lookupFailures: () => [...lookups].map(([rule, { count }]) => ({ rule, count })),
    close() {
      stop();
      for (const { log: tally } of lookups.values()) tally.close();
      clearInterval(ticker);
      clearInterval(resend);
      delivery.close();
      services.delete(fleetAcrossReads(fleet));
    },
  };
  services.set(fleetAcrossReads(fleet), service);
  return service;
}
