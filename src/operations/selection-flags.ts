// How `docklens logs` and `docklens stats` name a selection instead of one container: the
// flags, and the selection they make (docs/http-interface.md, "Selections").
import type { CoreOptions } from "../core/engine/fleet.ts";
import { filterOptions } from "./parts.ts";

/** `[cluster] [container]`: both name one container; neither, or the cluster alone, a selection. */
export const OPTIONAL_CONTAINER = [
  ["[cluster]", "cluster name or id; alone, that cluster's containers"],
  ["[container]", "container name, id or id prefix; without it, a selection's containers"],
] as const;

/** Repeatable: every value given, in order. */
const collect = (value: string, all: string[] = []) => [...all, value];

/** `--cluster` and `--project`; each command adds `--filter` its own way (`-f` is logs' follow). */
export const SELECTION_OPTIONS = [
  {
    flags: "--cluster <cluster>" as const,
    description: "a cluster of the selection, repeatable; every cluster when none",
    parse: collect,
  },
  {
    flags: "--project <name>" as const,
    description: "the containers of a compose project or stack",
  },
];

interface SelectionFlags {
  cluster?: string[];
  project?: string;
  filter?: string[];
}

/** The clusters a selection names: the positional one and every `--cluster`. */
export function clustersOf(cluster: string | undefined, options: SelectionFlags): string[] {
  return [...(cluster !== undefined ? [cluster] : []), ...(options.cluster ?? [])];
}

/** A usage error: selection flags beside one container. */
export function selectionCheck(name: string | undefined, options: SelectionFlags) {
  return name !== undefined && (options.cluster || options.project || options.filter)
    ? "--cluster, --project and --filter choose containers: give them without a container"
    : undefined;
}

/** The selection the flags make, as the core's selection options. */
export async function selectionOptions(
  cluster: string | undefined,
  options: SelectionFlags,
  coreOptions: CoreOptions,
) {
  return {
    ...coreOptions,
    clusters: clustersOf(cluster, options),
    ...(await filterOptions("containers", options.filter)),
    ...(options.project !== undefined ? { project: options.project } : {}),
  };
}
