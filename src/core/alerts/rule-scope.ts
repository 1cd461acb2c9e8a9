// What a rule looks at: a selection as `/logs` makes one (cluster, project, filter), checked once
// when the rules start, so that a rule naming an unknown cluster stops serve, naming the rule.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { listAllContainers, type ClusterContainerItem } from "../containers/list-containers.ts";
import { projectOf } from "../containers/projects.ts";
import { isSelected, type SelectedContainer } from "../containers/selection.ts";
import type { ClusterError } from "../engine/across-clusters.ts";
import { parseFilters, type EngineFilters } from "../engine/filters.ts";
import { resolveClusters, type CoreOptions } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import type { AlertRule } from "../config/alerts-schema.ts";

/** A rule with its selection resolved. */
export interface RuleScope {
  rule: AlertRule;
  clusters: ClusterConfig[];
  filters?: EngineFilters;
  project?: string;
}

/** The scope of `rule` over the fleet's clusters; `INVALID_CONFIG` naming the rule when it cannot be. */
export function scopeOf(rule: AlertRule, options: CoreOptions): RuleScope {
  try {
    const clusters = resolveClusters(rule.clusters, options);
    const filters = parseFilters("containers", rule.filter);
    return {
      rule,
      clusters,
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
