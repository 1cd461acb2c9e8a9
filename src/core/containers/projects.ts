import { compareStrings } from "../compare.ts";
import type { ClusterRef } from "../engine/across-clusters.ts";

/** The labels that tie a container to a compose project or a swarm stack, and name its service. */
const COMPOSE = { project: "com.docker.compose.project", service: "com.docker.compose.service" };
const STACK = { project: "com.docker.stack.namespace", service: "com.docker.swarm.service.name" };

/** A compose project or stack as the containers of every cluster show it. */
export interface ProjectGroup {
  name: string;
  /** Its services, sorted. */
  services: string[];
  running: number;
  total: number;
  /** The clusters it has containers on, in id order. */
  clusters: ClusterRef[];
}

/** The item fields the grouping reads. */
type Item = { Labels?: Record<string, string> | null; State: string; cluster: ClusterRef };

/** The compose project (or stack namespace) a container belongs to, if any. */
export function projectOf(container: Pick<Item, "Labels">): string | undefined {
  return container.Labels?.[COMPOSE.project] ?? container.Labels?.[STACK.project];
}

/**
 * Group containers into their compose projects and stacks, as `docker compose ls` counts them
 * but across clusters: services, running of total, and the clusters each spans. Sorted by name;
 * containers of no project are left out.
 */
export function groupProjects(containers: readonly Item[]): ProjectGroup[] {
  const groups = new Map<
    string,
    { services: Set<string>; running: number; total: number; clusters: Map<number, ClusterRef> }
  >();
  for (const container of containers) {
    const name = projectOf(container);
    if (name === undefined) continue;
    const group = groups.get(name) ?? {
      services: new Set<string>(),
      running: 0,
      total: 0,
      clusters: new Map<number, ClusterRef>(),
    };
    groups.set(name, group);
    const service =
      container.Labels?.[COMPOSE.service] ??
      container.Labels?.[STACK.service]?.replace(`${name}_`, "");
    if (service) group.services.add(service);
    group.total++;
    if (container.State === "running") group.running++;
    group.clusters.set(container.cluster.id, container.cluster);
  }
  return [...groups]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, group]) => ({
      name,
      services: [...group.services].sort(compareStrings),
      running: group.running,
      total: group.total,
      clusters: [...group.clusters.values()].sort((a, b) => a.id - b.id),
    }));
}
