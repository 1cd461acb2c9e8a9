// How serve follows each kind of rule: the state rules and engine-down on the engine hub's events
// (one subscription per cluster, shared with every other user of it), the fleet rules (drift,
// missing) re-evaluated when containers come and go, log rules on their selection's merged logs,
// cpu and memory rules on their selection's stats. Each rule follows the fleet's clusters as nodes'
// come and go.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { fleetHubOptions, type CoreOptions } from "../engine/fleet.ts";
import { filtersAreLocal } from "../hub/container-filter.ts";
import { followMirror } from "../hub/container-mirror.ts";
import { subscribeEvents, type EngineEvent, type HubSubscription } from "../hub/event-hub.ts";
import { evaluateRule, type RuleEvaluation, type Seen } from "./evaluate.ts";
import { ruleClusters, scopeChooses, scopeHas, type RuleScope } from "./rule-scope.ts";
import { followLogRule, sampleUsageRule } from "./samplers.ts";
import { containerAction, eventVerdict, restartLoop, STATE_TRIGGERS } from "./state-triggers.ts";

/** What the watchers tell the alerts service. */
export interface RuleSink {
  /** `seen` holds now; an alert quiet for `quietMs` ends by itself. */
  fire(scope: RuleScope, seen: Seen, quietMs?: number): void;
  /** The condition of `scope` on this cluster and container (none: the cluster's own) ended. */
  end(scope: RuleScope, cluster: ClusterConfig | number, container: string | null): void;
  /** Whether an event's container is the rule's could not be told: its event is lost. */
  lookupFailed(scope: RuleScope, cluster: ClusterConfig, error: Error): void;
  /** What the rule sees now: alerts of the clusters that answered and not seen have ended. */
  reconcile(scope: RuleScope, evaluation: RuleEvaluation): void;
  /** The rule's clusters changed: its alerts of those it no longer looks at have ended. */
  followed(scope: RuleScope): void;
  log(message: string): void;
}

/** Fleet rules are evaluated again this long after the last container came or went. */
const FLEET_SETTLE_MS = 1000;
/** And this often anyway: what events cannot tell is mended. */
const FLEET_EVERY_MS = 5 * 60_000;
/** How often the fleet's list of clusters is looked at (a node's clusters came or went). */
const CLUSTERS_EVERY_MS = 1000;
/** Container actions that may change what a fleet rule sees. */
const FLEET_ACTIONS = new Set(["create", "destroy", "start", "die", "rename", "pause", "unpause"]);

/** Start following every rule of `scopes`; the returned function stops it all. */
export function watchRules(
  scopes: readonly RuleScope[],
  options: CoreOptions,
  sink: RuleSink,
): () => void {
  const controller = new AbortController();
  const signal = controller.signal;
  const by = (test: (scope: RuleScope) => boolean) => scopes.filter(test);
  const stateScopes = by((scope) => STATE_TRIGGERS.has(scope.rule.when));
  const downScopes = by((scope) => scope.rule.when === "engine-down");
  const fleetScopes = by((scope) => scope.rule.when === "drift" || scope.rule.when === "missing");
  const deaths = new Map<string, number[]>();
  const quietOf = (scope: RuleScope) =>
    scope.rule.when === "restarting" ? scope.rule.windowMs : undefined;

  const evaluate = (scope: RuleScope) =>
    evaluateRule(scope, options).then(
      (evaluation) => sink.reconcile(scope, evaluation),
      (error: Error) => sink.log(`rule "${scope.rule.name}": ${error.message}`),
    );

  /** A restart loop: a container's deaths within the rule's window, enough of them. */
  const died = (scope: RuleScope, key: string) => {
    const loop = restartLoop(
      scope.rule,
      deaths.get(`${scope.rule.name}\0${key}`) ?? [],
      Date.now(),
    );
    deaths.set(`${scope.rule.name}\0${key}`, loop.times);
    return loop.cause;
  };

  const onContainerEvent = async (cluster: ClusterConfig, event: EngineEvent) => {
    const seen = containerAction(event);
    if (!seen) return;
    if (seen.action === "destroy")
      for (const scope of stateScopes)
        deaths.delete(`${scope.rule.name}\0${cluster.id}\0${seen.id}`);
    if (FLEET_ACTIONS.has(seen.action))
      for (const scope of fleetScopes) if (scopeHas(scope, cluster)) settle(scope);
    for (const scope of stateScopes) {
      if (!scopeHas(scope, cluster)) continue;
      const verdict = eventVerdict(scope.rule.when, seen.action, seen.attributes);
      if (!verdict) continue;
      if ("resolve" in verdict) {
        sink.end(scope, cluster, seen.id);
        continue;
      }
      const cause = "fire" in verdict ? verdict.fire : died(scope, `${cluster.id}\0${seen.id}`);
      if (!cause) continue;
      const chosen = await scopeChooses(scope, cluster, seen.id, options).catch((error: Error) => {
        sink.lookupFailed(scope, cluster, error);
        return undefined;
      });
      const ref = { id: cluster.id, name: cluster.name };
      if (chosen)
        sink.fire(
          scope,
          { cluster: ref, container: { id: chosen.id, name: chosen.name }, ...cause },
          quietOf(scope),
        );
    }
  };

  const timers = new Map<RuleScope, NodeJS.Timeout>();
  const settle = (scope: RuleScope) => {
    clearTimeout(timers.get(scope));
    timers.set(scope, setTimeout(() => void evaluate(scope), FLEET_SETTLE_MS).unref());
  };
  const every = setInterval(() => fleetScopes.forEach(settle), FLEET_EVERY_MS).unref();
  fleetScopes.forEach(settle);

  const live = fleetHubOptions(options.fleet).live;
  /** One cluster's subscription to the engine hub's events, and its mirror held if asked. */
  const watch = (cluster: ClusterConfig): HubSubscription[] => {
    // The state rules' lookups read the clusters' mirrors: held while the rules run, so that a
    // quiet spell longer than the mirrors' grace does not cost a whole list again.
    const held =
      live &&
      stateScopes.some((scope) => scopeHas(scope, cluster) && filtersAreLocal(scope.filters))
        ? [followMirror(cluster, options, () => {})]
        : [];
    const subscription = subscribeEvents(cluster, options, (hub) => {
      const down = downScopes.filter((scope) => scopeHas(scope, cluster));
      if (hub.kind === "event") void onContainerEvent(cluster, hub.event);
      else if (hub.kind === "up") {
        for (const scope of down) sink.end(scope, cluster, null);
        // The first list, or after a gap: what each state rule sees on this cluster now.
        for (const scope of stateScopes)
          if (scopeHas(scope, cluster)) void evaluate({ ...scope, clusters: [cluster] });
        for (const scope of fleetScopes) if (scopeHas(scope, cluster)) settle(scope);
      } else
        for (const scope of down)
          sink.fire(scope, {
            cluster: { id: cluster.id, name: cluster.name },
            container: null,
            cause: `engine unreachable: ${hub.error.message}`,
          });
    });
    return [...held, subscription];
  };

  const logs = new Map<RuleScope, AbortController>();
  /** A log rule's follow of its selection, (again) over its clusters now. */
  const followLogs = (scope: RuleScope) => {
    logs.get(scope)?.abort();
    const own = new AbortController();
    logs.set(scope, own);
    void followLogRule(
      scope,
      { ...options, signal: AbortSignal.any([signal, own.signal]) },
      {
        seen: (seen) => sink.fire(scope, seen, scope.rule.resolveAfterMs),
        ended: () => {},
        failed: (message) => sink.log(message),
      },
    );
  };
  by((candidate) => candidate.rule.when === "log").forEach(followLogs);

  // The fleet's clusters change as nodes come and go (core/node/node-clusters.ts replaces the
  // list): each rule finds its clusters again, new ones are watched and gone ones are let go.
  const watched = new Map<number, { cluster: ClusterConfig; closers: HubSubscription[] }>();
  let followed: ClusterConfig[] | undefined;
  const follow = () => {
    const clusters = options.fleet.config.clusters;
    if (clusters === followed) return;
    const changed = followed === undefined ? [] : scopes.filter((scope) => refound(scope, options));
    followed = clusters;
    const wanted = new Map<number, ClusterConfig>();
    for (const scope of [...stateScopes, ...downScopes, ...fleetScopes])
      for (const cluster of scope.clusters) wanted.set(cluster.id, cluster);
    for (const [id, { cluster, closers }] of watched)
      if (wanted.get(id) !== cluster) {
        for (const closer of closers) closer.close();
        watched.delete(id);
        for (const key of deaths.keys()) if (key.split("\0")[1] === String(id)) deaths.delete(key);
      }
    for (const [id, cluster] of wanted)
      if (!watched.has(id)) watched.set(id, { cluster, closers: watch(cluster) });
    for (const scope of changed) {
      sink.followed(scope);
      if (fleetScopes.includes(scope)) settle(scope);
      if (logs.has(scope)) followLogs(scope);
    }
  };
  follow();
  const following = setInterval(follow, CLUSTERS_EVERY_MS).unref();

  for (const scope of by(
    (candidate) => candidate.rule.when === "cpu" || candidate.rule.when === "memory",
  ))
    void sampleUsageRule(
      scope,
      { ...options, signal, everyMs: usageEvery(scope) },
      {
        seen: (seen) => sink.fire(scope, seen),
        ended: (cluster, container) => sink.end(scope, cluster, container),
        failed: (message) => sink.log(message),
      },
    );

  return () => {
    controller.abort();
    clearInterval(every);
    clearInterval(following);
    for (const timer of timers.values()) clearTimeout(timer);
    for (const { closers } of watched.values()) for (const closer of closers) closer.close();
  };
}

/** Find the clusters of `scope`'s rule again: whether they changed. */
function refound(scope: RuleScope, options: CoreOptions): boolean {
  const next = ruleClusters(scope.rule, options);
  const same =
    next.length === scope.clusters.length &&
    next.every((cluster, index) => cluster === scope.clusters[index]);
  scope.clusters = next;
  return !same;
}

/** A cpu or memory rule samples a few times per `for`, from every second to every 15. */
function usageEvery(scope: RuleScope): number {
  return Math.min(15_000, Math.max(1000, Math.round(scope.rule.forMs / 3)));
}
