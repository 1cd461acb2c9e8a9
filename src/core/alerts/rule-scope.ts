// What a rule looks at: a selection as `/logs` makes one (cluster, project, filter), checked once
// when the rules start, so that a rule naming an unknown cluster stops serve, naming the rule. Its
// clusters are found again as nodes' clusters come and go (a rule of `edge.*` follows them).
import { clusterGlob, namesNodeCluster, type ClusterConfig } from "../config/cluster-config.ts";
import { listAllContainers, type ClusterContainerItem } from "../containers/list-containers.ts";
import { projectOf } from "../containers/projects.ts";
import { isSelected, type SelectedContainer } from "../containers/selection.ts";
import type { ClusterError } from "../engine/across-clusters.ts";
import { parseFilters, type EngineFilters } from "../engine/filters.ts";
import { knownClusters, resolveCluster, type CoreOptions } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import type { AlertRule } from "../config/alerts-schema.ts";

/** A rule with its selection resolved. */
export interface RuleScope {
  rule: AlertRule;
  /** The fleet's clusters it looks at now: serve finds them again when the fleet's list changes. */
  clusters: ClusterConfig[];
  filters?: EngineFilters;
  project?: string;
}

/** The scope of `rule` over the fleet's clusters; `INVALID_CONFIG` naming the rule when it cannot be. */
export function scopeOf(rule: AlertRule, options: CoreOptions): RuleScope {
  try {
    for (const ref of rule.clusters) checkClusterRef(ref, options);
    const filters = parseFilters("containers", rule.filter);
    return {
      rule,
      clusters: ruleClusters(rule, options),
      ...(filters ? { filters } : {}),
      ...(rule.project !== undefined ? { project: rule.project } : {}),
    };
  } catch (error) {
    throw new DocklensError(
      "INVALID_CONFIG",
      `alerts rule "${rule.name}": ${(error as Error).message}`,
    );
  }
}

/**
 * The fleet's clusters `rule` looks at now, in the fleet's order: those its `cluster` names (by
 * name, id, or a glob of names such as `edge.*`), every one when it names none.
 */
export function ruleClusters(rule: AlertRule, options: CoreOptions): ClusterConfig[] {
  const { clusters } = options.fleet.config;
  if (!rule.clusters.length) return clusters;
  const tests = rule.clusters.map(clusterTest);
  return clusters.filter((cluster) => tests.some((test) => test(cluster)));
}

function clusterTest(ref: string): (cluster: ClusterConfig) => boolean {
  if (/^\d+$/.test(ref)) return (cluster) => cluster.id === Number(ref);
  const pattern = clusterGlob(ref);
  return (cluster) => pattern.test(cluster.name);
}

/**
 * A rule's cluster reference must match a cluster now, unless a node may offer it later: it
 * starts with a node's name and a dot (`edge.alpha`, `edge.*`), or with NATS, has a dot (nodes
 * there are known as they are found). Throws `CLUSTER_NOT_FOUND` (or `INVALID_NAME`) otherwise.
 */
function checkClusterRef(ref: string, options: CoreOptions): void {
  const { clusters, nodes, nats } = options.fleet.config;
  // Over NATS any node may answer: a dotted name may be a cluster of one not heard yet.
  const ofNode = namesNodeCluster(ref, nodes ?? []) || (nats !== undefined && ref.includes("."));
  if (ofNode || clusters.some(clusterTest(ref))) return;
  if (!/[*?]/.test(ref)) resolveCluster(ref, options); // Its error names the clusters known.
  throw new DocklensError(
    "CLUSTER_NOT_FOUND",
    `cluster ${JSON.stringify(ref)} matches no cluster (known: ${knownClusters(clusters)})`,
  );
}

/** The options of a selection as `/logs` and `/stats` take it, of `scope`'s rule. */
export function selectionOf(scope: RuleScope, options: CoreOptions) {
  return {
    ...options,
    clusters: scope.clusters.map((cluster) => String(cluster.id)),
    ...(scope.filters ? { filters: scope.filters } : {}),
    ...(scope.project !== undefined ? { project: scope.project } : {}),
  };
}

/** Whether `scope` looks at `cluster`. */
export function scopeHas(scope: RuleScope, cluster: ClusterConfig): boolean {
  return scope.clusters.some((candidate) => candidate.id === cluster.id);
}

/** Container `id` of `cluster` if the rule's selection chooses it now. */
export function scopeChooses(
  scope: RuleScope,
  cluster: ClusterConfig,
  id: string,
  options: CoreOptions,
): Promise<SelectedContainer | undefined> {
  return isSelected({ id: cluster.id, name: cluster.name }, id, selectionOf(scope, options));
}

/** Every container the rule's selection chooses now, stopped ones too, and the clusters that failed. */
export async function listScope(
  scope: RuleScope,
  options: CoreOptions,
): Promise<{ containers: ClusterContainerItem[]; errors: ClusterError[] }> {
  const { project: _, ...selection } = selectionOf(scope, options);
  const { containers, errors } = await listAllContainers(selection);
  return {
    containers: containers.filter(
      (item) => scope.project === undefined || projectOf(item) === scope.project,
    ),
    errors,
  };
}

/** A container of a list as an alert names it. */
export function containerName(item: { Id: string; Names: string[] }): { id: string; name: string } {
  return { id: item.Id, name: (item.Names[0] ?? item.Id).replace(/^\//, "") };
}
