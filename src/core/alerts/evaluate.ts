// A rule evaluated now, from what the engines list: every condition it sees, and the clusters it
// could look at (an alert of a cluster that did not answer is left as it is). `docklens alerts`
// evaluates every rule so; serve evaluates the state rules so after a gap in the events, and the
// fleet rules (drift, missing) when containers come and go.
import { readAllStats } from "../containers/all-stats.ts";
import { inspectContainer } from "../containers/containers.ts";
import { readMergedLogs } from "../containers/merged-logs.ts";
import { projectOf } from "../containers/projects.ts";
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { listDrift } from "../objects/drift.ts";
import type { AlertCondition } from "./alert-book.ts";
import { containerName, listScope, selectionOf, type RuleScope } from "./rule-scope.ts";
import { listedVerdict } from "./state-triggers.ts";

/** A condition as a rule sees it, before the alert's rule, trigger and link are added. */
export type Seen = Omit<AlertCondition, "rule" | "when" | "link">;

/** What {@link evaluateRule} found. */
export interface RuleEvaluation {
  seen: Seen[];
  /** The clusters that answered: what is not seen on them has ended. */
  answered: ClusterRef[];
}

/** Longest matching line an alert quotes. */
export const MAX_CAUSE = 300;

/** What `scope`'s rule sees now. `now` bounds a log rule's lines to its window. */
export async function evaluateRule(
  scope: RuleScope,
  options: CoreOptions,
  now = Date.now(),
): Promise<RuleEvaluation> {
  const { rule } = scope;
  // None (a node's clusters not offered yet): an empty selection would be every cluster.
  if (!scope.clusters.length) return { seen: [], answered: [] };
  const all = scope.clusters.map((cluster) => ({ id: cluster.id, name: cluster.name }));
  const selection = selectionOf(scope, options);
  const answeredOf = (errors: Array<{ cluster: ClusterRef; container?: unknown }>) =>
    all.filter(
      (cluster) => !errors.some((error) => !error.container && error.cluster.id === cluster.id),
    );
  switch (rule.when) {
    case "engine-down": {
      const { errors } = await listScope(scope, options);
      return {
        seen: errors.map(({ cluster, error }) => ({
          cluster,
          container: null,
          cause: `engine unreachable: ${error.message}`,
        })),
        answered: all,
      };
    }
    case "log": {
      const since = (now - rule.windowMs) / 1000;
      const { lines, errors } = await readMergedLogs({
        ...selection,
        query: { grep: rule.grep!, since, tail: "all" },
      });
      const first = new Map<string, Seen>();
      for (const line of lines) {
        const key = `${line.cluster.id}\0${line.container.id}`;
        if (!first.has(key))
          first.set(key, {
            cluster: line.cluster,
            container: line.container,
            cause: line.text.slice(0, MAX_CAUSE),
          });
      }
      return { seen: [...first.values()], answered: answeredOf(errors) };
    }
    case "cpu":
    case "memory": {
      const { stats, errors } = await readAllStats(selection);
      const seen = stats.flatMap(({ cluster, container, summary }) => {
        const value = rule.when === "cpu" ? summary.cpuPercent : summary.memoryPercent;
        if (!(value > rule.above!)) return [];
        const rounded = Math.round(value * 10) / 10;
        return [
          {
            cluster,
            container,
            value: rounded,
            cause: `${rule.when} ${rounded}% > ${rule.above}%`,
          },
        ];
      });
      return { seen, answered: answeredOf(errors) };
    }
    case "drift":
      return driftSeen(scope, options);
    case "missing":
      return missingSeen(scope, options);
    default: {
      const { containers, errors } = await listScope(scope, options);
      const seen = await Promise.all(
        containers.flatMap((item) => {
          const verdict = listedVerdict(rule.when, item);
          if (!verdict) return [];
          const one: Seen = { cluster: item.cluster, container: containerName(item), ...verdict };
          return [rule.when === "exited" ? withDeathTime(one, options) : Promise.resolve(one)];
        }),
      );
      return { seen, answered: answeredOf(errors) };
    }
  }
}

/**
 * A death found in a list began when the container exited (`State.FinishedAt`), not when it was
 * listed: one dead before serve started did not die at serve's start. Left undated when the
 * container cannot be read (removed since).
 */
async function withDeathTime(seen: Seen, options: CoreOptions): Promise<Seen> {
  const ref = { cluster: String(seen.cluster!.id), name: seen.container!.id };
  const finished = await inspectContainer(ref, options).then(
    (detail) => detail.State?.FinishedAt,
    () => undefined,
  );
  const at = finished ? Date.parse(finished) : NaN;
  // Docker's zero time (`0001-01-01…`) is no time.
  return at > 0 ? { ...seen, startsAt: new Date(at).toISOString() } : seen;
}

/** Each cluster on which a reference means another image than on some other selected cluster. */
async function driftSeen(scope: RuleScope, options: CoreOptions): Promise<RuleEvaluation> {
  const clusters = scope.clusters.map((cluster) => String(cluster.id));
  const { images, errors } = await listDrift({ ...options, clusters });
  const seen = images
    .filter((image) => image.drift)
    .flatMap((image) =>
      image.clusters.map(({ cluster, imageIds }) => {
        const others = image.clusters
          .filter((other) => other.cluster.id !== cluster.id)
          .map((other) => `${other.cluster.name} ${other.imageIds.map(short).join(", ")}`);
        return {
          cluster,
          container: null,
          subject: image.reference,
          value: image.reference,
          cause: `${image.reference} is ${imageIds.map(short).join(", ")} here, ${others.join("; ")}`,
        };
      }),
    );
  const answered = scope.clusters
    .filter((cluster) => !errors.some((error) => error.cluster.id === cluster.id))
    .map((cluster) => ({ id: cluster.id, name: cluster.name }));
  return { seen, answered };
}

/**
 * A service (the rule's `label`: a compose service by default, named with its project) running
 * on some selected clusters and not on others; or, with `min`, running fewer than `min` times
 * across them (an alert of no cluster).
 */
async function missingSeen(scope: RuleScope, options: CoreOptions): Promise<RuleEvaluation> {
  const { rule } = scope;
  const { containers, errors } = await listScope(scope, options);
  const answered = scope.clusters
    .filter((cluster) => !errors.some((error) => error.cluster.id === cluster.id))
    .map((cluster) => ({ id: cluster.id, name: cluster.name }));
  const running = new Map<string, Map<number, number>>();
  for (const item of containers) {
    const value = item.Labels?.[rule.label];
    if (value === undefined) continue;
    const project = projectOf(item);
    const service =
      project && rule.label === "com.docker.compose.service" ? `${project}/${value}` : value;
    const byCluster = running.get(service) ?? new Map<number, number>();
    running.set(service, byCluster);
    byCluster.set(
      item.cluster.id,
      (byCluster.get(item.cluster.id) ?? 0) + Number(item.State === "running"),
    );
  }
  const seen: Seen[] = [];
  for (const [service, byCluster] of running) {
    const total = [...byCluster.values()].reduce((sum, count) => sum + count, 0);
    if (rule.min !== undefined) {
      if (total < rule.min)
        seen.push({
          cluster: null,
          container: null,
          subject: service,
          value: total,
          cause: `${service}: ${total} running across the clusters, fewer than ${rule.min}`,
        });
      continue;
    }
    const where = answered.filter((cluster) => (byCluster.get(cluster.id) ?? 0) > 0);
    if (!where.length) continue;
    for (const cluster of answered.filter((candidate) => !where.includes(candidate)))
      seen.push({
        cluster,
        container: null,
        subject: service,
        value: service,
        cause: `${service} is not running here; it runs on ${where.map((other) => other.name).join(", ")}`,
      });
  }
  return { seen, answered };
}

/** `sha256:0123456789ab…` → `0123456789ab`. */
function short(imageId: string): string {
  return imageId.replace(/^sha256:/, "").slice(0, 12);
}
