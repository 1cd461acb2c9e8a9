// Alerting in serve: the config's rules followed by the watchers (events, not polling, for the
// state rules), their alerts kept in an AlertBook, each change told to the rule's receivers
// through the delivery queues, one per receiver.
import type { AlertTrigger } from "../config/alert-triggers.ts";
import { fleetAcrossReads, type CoreOptions, type Fleet } from "../engine/fleet.ts";
import { AlertBook, type Alert } from "./alert-book.ts";
import { alertFiring } from "./alert-firing.ts";
import { createDelivery, type Delivery, type DeliveryOptions } from "./delivery.ts";
import type { Seen } from "./evaluate.ts";
import { LookupFailures } from "./lookup-failures.ts";
import { readReceiver, type ReadyReceiver } from "./receivers.ts";
import { scopeOf } from "./rule-scope.ts";
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
  const log = options.log ?? (() => {});
  const delivery = deliveryOf(config.rules, receivers, log, options.delivery);
  const lookups = new LookupFailures(log);
  const book = new AlertBook();
  const notify = new Map(config.rules.map((rule) => [rule.name, rule.notify]));
  const base = config.url ?? options.url ?? "";
  const firing = alertFiring({ book, delivery, notify, base, link: alertLink, log });
  const stop = watchRules(scopes, options, {
    ...firing,
    lookupFailed: (scope, cluster, error) => lookups.failed(scope, cluster, error),
    log,
  });
  const ticker = setInterval(firing.tick, 1000).unref();
  const resend = setInterval(() => {
    resendFiring(book, notify, receivers, delivery);
  }, ALERTMANAGER_RESEND_MS).unref();
  // The scopes' clusters follow the fleet's (watchers.ts).
  const byRule = new Map(scopes.map((scope) => [scope.rule.name, scope]));
  const service: AlertsService = {
    list: () => book.list(),
    clustersOf: (rule) => byRule.get(rule)?.clusters.map((cluster) => cluster.id) ?? [],
    deliveries: () => delivery.counts(),
    dropped: () => delivery.dropped(),
    lookupFailures: () => lookups.counts(),
    close() {
      stop();
      lookups.close();
      clearInterval(ticker);
      clearInterval(resend);
      delivery.close();
      services.delete(fleetAcrossReads(fleet));
    },
  };
  services.set(fleetAcrossReads(fleet), service);
  return service;
}

/** One queue per receiver, its failures and drops logged, each rule's group interval kept. */
function deliveryOf(
  rules: ReadonlyArray<{ name: string; groupIntervalMs: number }>,
  receivers: ReadyReceiver[],
  log: (message: string) => void,
  options: DeliveryOptions | undefined,
): Delivery {
  const intervals = new Map(rules.map((rule) => [rule.name, rule.groupIntervalMs]));
  return createDelivery(receivers, {
    onFailure: (receiver, problem, wait) =>
      log(`receiver "${receiver}" failed (${problem}); trying again in ${wait} ms`),
    onDropped: (receiver, count) =>
      log(`receiver "${receiver}": its queue is full; ${count} notices dropped`),
    groupIntervalMs: (rule) => intervals.get(rule) ?? 0,
    ...options,
  });
}

/** What fires, sent again to each Alertmanager of its rule, which forgets what it is not sent. */
function resendFiring(
  book: AlertBook,
  notify: ReadonlyMap<string, readonly string[]>,
  receivers: ReadyReceiver[],
  delivery: Delivery,
): void {
  const firing = book.firing();
  for (const receiver of receivers.filter((candidate) => candidate.kind === "alertmanager")) {
    const notices = firing
      .filter((alert) => notify.get(alert.rule)?.includes(receiver.name))
      .map((alert) => {
        const subject = book.subjectOf(alert.id);
        return { alert, ...(subject ? { subject } : {}) };
      });
    delivery.send([receiver.name], notices);
  }
}
