// How `docklens logs` and `docklens stats` name a selection instead of one container: the
// flags, and the selection they make (docs/http-interface.md, "Selections").
import type { EngineFilters } from "../core/engine/filters.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import { collect } from "./parts.ts";

/** `[cluster] [container]`: both name one container; neither, or the cluster alone, a selection. */
export const OPTIONAL_CONTAINER = [
  [
    "[cluster]",
    "cluster name or id; alone, that cluster's containers (with only one cluster, a " +
      "container's name alone is that container)",
  ],
  ["[container]", "container name, id or id prefix; without it, a selection's containers"],
] as const;

/** `--cluster` and `--project`; each command adds `--filter` its own way (`-f` is logs' follow). */
export const SELECTION_OPTIONS = [
  {
    flags: "--cluster <cluster>" as const,
    description: "a cluster of the selection, repeatable; every cluster when none",
    parse: collect,
    field: "cluster",
  },
  {
    flags: "--project <name>" as const,
    description: "the containers of a compose project or stack",
    field: "project",
  },
];

export interface SelectionFlags {
  cluster?: string[];
  project?: string;
  filter?: string[];
}

/** The clusters a selection names: the positional one and every `--cluster`. */
export function clustersOf(cluster: string | undefined, options: { cluster?: string[] }): string[] {
  return [...(cluster !== undefined ? [cluster] : []), ...(options.cluster ?? [])];
}

/** A usage error: selection flags beside one container. */
export function selectionCheck(name: string | undefined, options: SelectionFlags) {
  return name !== undefined && (options.cluster || options.project || options.filter)
    ? "--cluster, --project and --filter choose containers: give them without a container"
    : undefined;
}

/** The selection the flags make (their input, decoded), as the core's selection options. */
export function selectionOptions(
  cluster: string | undefined,
  input: { cluster?: string[]; filter?: EngineFilters; project?: string },
  coreOptions: CoreOptions,
) {
  return {
    ...coreOptions,
    clusters: clustersOf(cluster, input),
    filters: input.filter,
    project: input.project,
  };
}

/**
 * A selection that matches no container is an error (exit 1) saying so, not an empty answer (a
 * misspelt `--project` would read as a quiet one); it names the clusters that could not be asked,
 * where the containers may be. `running`: stats, which show running containers only.
 */
export async function requireMatches(
  selection: ReturnType<typeof selectionOptions>,
  options: SelectionFlags,
  running = false,
): Promise<void> {
  const { selectContainers } = await import("../core/containers/selection.ts");
  const { containers, errors } = await selectContainers({ ...selection, running });
  const { resolveClusters } = await import("../core/engine/fleet.ts");
  // When no cluster answered, the command says so as every command across clusters does.
  if (containers.length || errors.length === resolveClusters(selection.clusters, selection).length)
    return;
  const { DocklensError } = await import("../core/errors.ts");
  const chosen = [
    ...selection.clusters.map((cluster) => `cluster ${cluster}`),
    ...(options.project !== undefined ? [`--project ${options.project}`] : []),
    ...(options.filter ?? []).map((filter) => `--filter ${filter}`),
  ];
  const failed = errors.map((error) => error.cluster.name);
  throw new DocklensError(
    "CONTAINER_NOT_FOUND",
    `no ${running ? "running " : ""}container matches ${chosen.join(" ") || "the selection"}` +
      (failed.length ? ` on the clusters that answered (not: ${failed.join(", ")})` : ""),
  );
}
