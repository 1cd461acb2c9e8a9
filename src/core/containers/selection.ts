import type { AcrossClustersOptions, ClusterError, ClusterRef } from "../engine/across-clusters.ts";
import type { EngineFilters } from "../engine/filters.ts";
import { DocklensError, invalidInput } from "../errors.ts";
import { MAX_NAME_LENGTH, NAME_PATTERN } from "../names.ts";
import { resolveCluster } from "../engine/fleet.ts";
import { compileContainerFilters } from "../hub/container-filter.ts";
import { readMirroredContainer } from "../hub/container-mirror.ts";
import {
  listAllContainers,
  listContainers,
  newestFirst,
  type ContainerItem,
} from "./containers.ts";
import { projectOf } from "./projects.ts";

/**
 * Containers one selection may hold when the caller sets no bound: merged logs and stats cost
 * an engine stream or call per container, so a selection of everything must be asked for.
 */
export const MAX_SELECTION = 100;

/** What chooses the containers of a selection (docs/http-interface.md, "Selections"). */
export interface Selection {
  /** Cluster ids or names; every cluster when empty or absent. */
  clusters?: readonly string[];
  /** Docker's container filters, from `parseFilters("containers", …)`; the engines apply them. */
  filters?: EngineFilters;
  /** A compose project or swarm stack: its containers only. */
  project?: string;
}

/** Options of {@link selectContainers}. */
export interface SelectContainersOptions extends AcrossClustersOptions, Selection {
  /** Only running containers (stats); else stopped ones too, as `docker ps -a`. */
  running?: boolean;
  /**
   * More containers than this is `INVALID_QUERY` naming how many matched; default the config's
   * `maxSelection`, else {@link MAX_SELECTION}.
   */
  maxContainers?: number;
  /**
   * More than the bound is cut to the most recently created, up to it, rather than refused: a
   * default that must open on something (the page's Logs view), never a selection someone made.
   */
  newest?: boolean;
}

/** A container of a selection. */
export interface SelectedContainer {
  cluster: ClusterRef;
  id: string;
  /** Its name, without the engine's leading `/`. */
  name: string;
  /** The engine's state: `running`, `exited`, `paused`… */
  state: string;
}

/** A cluster that could not be asked, or (with `container`) one container that could not be read. */
export type SelectionError = ClusterError & { container?: { id: string; name: string } };

/**
 * The containers chosen, newest first as docker lists them (those of one second by cluster id),
 * and the clusters that could not be asked.
 */
export interface SelectContainersResult {
  containers: SelectedContainer[];
  errors: SelectionError[];
  /** How many the selection matched: more than `containers` when `newest` cut it. */
  matched: number;
}

/**
 * The containers of every cluster asked (`clusters`) that docker's `filters` and the `project`
 * choose, stopped ones too unless `running`. Clusters that fail are in `errors`, never the end of
 * the others. More than `maxContainers` is `INVALID_QUERY`, naming how many matched, or with
 * `newest` the most recently created of them, up to that bound.
 * @example
 * ```ts
 * const { containers } = await selectContainers({ fleet, project: "shop" });
 * console.log(containers.map((c) => `${c.cluster.name}/${c.name} ${c.state}`));
 * ```
 */
export async function selectContainers(
  options: SelectContainersOptions,
): Promise<SelectContainersResult> {
  checkProject(options.project);
  const { containers, errors } = await listAllContainers(options);
  const matched = newestFirst(containers).filter((item) => chooses(item, options));
  const max = selectionBound(options);
  if (matched.length > max && !options.newest)
    throw new DocklensError(
      "INVALID_QUERY",
      `the selection matches ${matched.length} containers, more than ${max}: ` +
        "narrow it (cluster, filter, project)",
    );
  return {
    containers: matched.slice(0, max).map((item) => ({ cluster: item.cluster, ...identity(item) })),
    errors,
    matched: matched.length,
  };
}

/**
 * Container `id` of `cluster` as the selection chooses it now, or `undefined` when it does not:
 * for a container that started or was created after the selection was made. serve answers from
 * the cluster's live mirror (its filters applied as the engine applies them); the engine is
 * asked when the fleet keeps no mirror, or a filter needs more than a list item.
 */
export async function isSelected(
  cluster: ClusterRef,
  id: string,
  options: SelectContainersOptions,
): Promise<SelectedContainer | undefined> {
  const local = await compileContainerFilters(options.filters);
  const mirrored =
    local &&
    (await readMirroredContainer(resolveCluster(String(cluster.id), options), options, id));
  if (mirrored) {
    if (!mirrored.container) return undefined;
    const item = mirrored.container.item as unknown as ContainerItem;
    const verdict = local(item, mirrored.container.state);
    if (verdict !== undefined)
      return verdict && chooses(item, options) ? { cluster, ...identity(item) } : undefined;
  }
  // The same list as the selection's (a shared read): an `id` filter added to the user's would replace theirs.
  const { containers } = await listContainers(String(cluster.id), options);
  const item = containers.find((candidate) => candidate.Id === id && chooses(candidate, options));
  return item && { cluster, ...identity(item) };
}

function chooses(item: ContainerItem, options: SelectContainersOptions): boolean {
  return (
    (!options.running || item.State === "running") &&
    (options.project === undefined || projectOf(item) === options.project)
  );
}

function identity(item: ContainerItem): Omit<SelectedContainer, "cluster"> {
  return { id: item.Id, name: (item.Names[0] ?? item.Id).replace(/^\//, ""), state: item.State };
}

/** A project name as compose and stacks write them. */
function checkProject(project: string | undefined): void {
  if (project !== undefined && (project.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(project)))
    invalidInput(
      "project",
      `expected a compose project or stack name, got ${JSON.stringify(project.slice(0, 40))}`,
    );
}

/** The most containers a selection of `options` may hold: its own bound, the config's, or 100. */
export function selectionBound(options: SelectContainersOptions): number {
  return options.maxContainers ?? options.fleet.config.maxSelection ?? MAX_SELECTION;
}
