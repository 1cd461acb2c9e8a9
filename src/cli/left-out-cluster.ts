// A leading `<cluster>` left out: with one cluster in the config, docklens asks it, as docker's
// commands name no engine (`docklens logs web`, `docklens volumes`).
import type { ClusterConfig } from "../core/config/cluster-config.ts";
import { knownClusters } from "../core/engine/fleet.ts";
import { DocklensError } from "../core/errors.ts";
import type { AnyCommandSpec } from "../operations/command.ts";
import { CLUSTER_ARG } from "../operations/parts.ts";
import { OPTIONAL_CONTAINER, type SelectionFlags } from "../operations/selection-flags.ts";

/** Whether a command's first argument is the cluster ({@link CLUSTER_ARG}), which may be left out. */
export function leadsWithCluster(spec: AnyCommandSpec): boolean {
  return spec.args?.[0] === CLUSTER_ARG;
}

/** The values a command was given, each of a variadic argument's on its own. */
function givenValues(args: readonly unknown[]): string[] {
  return args.flatMap((value) =>
    value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [value as string],
  );
}

/**
 * The name of the first argument missing (commander's word for it) when more than the leading
 * cluster is: commander takes every argument of such a command as optional (main.ts).
 */
export function missingArgument(
  spec: AnyCommandSpec,
  args: readonly unknown[],
): string | undefined {
  if (!leadsWithCluster(spec)) return undefined;
  const given = givenValues(args).length;
  if (given >= required(spec) - 1) return undefined;
  return spec.args![given + 1]![0].replace(/[<>.]/g, "");
}

/** How many arguments a command requires: all but an optional last (`[ps-options...]`). */
const required = (spec: AnyCommandSpec) =>
  spec.args!.filter(([name]) => name.startsWith("<")).length;

/**
 * `args` with a leading cluster that was left out filled in with the config's only cluster; with
 * several, the error names them.
 */
export function withCluster(
  spec: AnyCommandSpec,
  args: unknown[],
  clusters: readonly ClusterConfig[],
  selection: SelectionFlags,
): unknown[] {
  if (spec.args === OPTIONAL_CONTAINER) return containerOfOnly(args, clusters, selection);
  const given = givenValues(args);
  if (!leadsWithCluster(spec)) return args;
  // With an optional last argument (`top [cluster] <container> [ps-options...]`), a first word
  // that names a cluster is the cluster; otherwise the cluster was left out.
  const optional = required(spec) < spec.args!.length;
  const named = clusters.some(({ name, id }) => given[0] === name || given[0] === String(id));
  const clusterGiven = optional
    ? named || given.length < required(spec) - 1
    : given.length !== spec.args!.length - 1;
  if (clusterGiven && !namesOfOnly(spec, given, clusters)) return args;
  if (clusters.length > 1)
    throw new DocklensError(
      "AMBIGUOUS_NAME",
      `name a cluster: there are ${clusters.length} (${knownClusters(clusters)})`,
    );
  if (!clusters.length) throw new DocklensError("CLUSTER_NOT_FOUND", "no cluster to ask");
  const values = [clusters[0]!.name, ...given];
  return spec.args!.map(([name], index) =>
    /\.\.\.[>\]]$/.test(name) ? values.slice(index) : values[index],
  );
}

/**
 * Whether `given` are all names of the config's only cluster: `inspect web job`, as `docker
 * inspect web job`, for a command whose last argument takes many; a first word that names the
 * cluster keeps the form that names it (`inspect alpha web job`).
 */
function namesOfOnly(
  spec: AnyCommandSpec,
  given: readonly string[],
  clusters: readonly ClusterConfig[],
): boolean {
  const only = clusters.length === 1 ? clusters[0]! : undefined;
  if (!only || !spec.args!.at(-1)![0].endsWith("...>") || given.length < spec.args!.length - 1)
    return false;
  return given[0] !== only.name && given[0] !== String(only.id);
}

/**
 * `logs web` and `stats web` of a config of one cluster: a word that names no cluster and no
 * selection beside it is a container of that cluster, as `docker logs web` means.
 */
function containerOfOnly(
  args: unknown[],
  clusters: readonly ClusterConfig[],
  selection: SelectionFlags,
): unknown[] {
  const [word, container] = args;
  const only = clusters.length === 1 ? clusters[0]! : undefined;
  if (!only || typeof word !== "string" || container !== undefined) return args;
  if (selection.cluster || selection.project || selection.filter) return args;
  return word === only.name || word === String(only.id) ? args : [only.name, word];
}
