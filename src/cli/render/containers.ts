// Containers as docker ps shows them: one cluster's (`containers`) or every cluster's (`ps`).
import type { ChalkInstance } from "chalk";
import { compareStrings } from "../../core/compare.ts";
import type { ClusterContainerItem, ContainerItem } from "../../core/containers/containers.ts";
import { groupProjects, projectOf } from "../../core/containers/projects.ts";
import { renderTable, shortId, timeAgo, truncate } from "./format.ts";
import { formatPorts } from "./ports.ts";

/**
 * Colour a container state the way an operator reads it: green up, red failed or unhealthy,
 * yellow in between (paused, restarting, created, health still starting). `text` is the status
 * as docker words it (`Up 3 minutes (unhealthy)`), which is where health shows.
 */
export function colorState(
  state: string,
  text: string,
  colors: ChalkInstance,
  exitCode?: number,
): string {
  if (/\(unhealthy\)/.test(text)) return colors.red(text);
  if (/\(health: starting\)|\(Paused\)/.test(text)) return colors.yellow(text);
  if (state === "running") return colors.green(text);
  if (state === "paused" || state === "restarting" || state === "created")
    return colors.yellow(text);
  if (state === "dead" || (state === "exited" && exitCode !== 0)) return colors.red(text);
  return colors.gray(text);
}

/** The columns of `docker ps`. */
const CONTAINER_COLUMNS = [
  "CONTAINER ID",
  "IMAGE",
  "COMMAND",
  "CREATED",
  "STATUS",
  "PORTS",
  "NAMES",
];

/** A row of {@link CONTAINER_COLUMNS}; `full` keeps ids and commands whole (`--no-trunc`). */
function containerRow(
  container: ContainerItem,
  colors: ChalkInstance,
  now = Date.now(),
  full = false,
): string[] {
  return [
    full ? container.Id : shortId(container.Id),
    container.Image.startsWith("sha256:") && !full ? shortId(container.Image) : container.Image,
    JSON.stringify(full ? container.Command : truncate(container.Command, 20)),
    timeAgo(container.Created, now),
    colorState(
      container.State,
      container.Status,
      colors,
      Number(/^Exited \((\d+)\)/.exec(container.Status)?.[1] ?? 0),
    ),
    formatPorts(container.Ports ?? []),
    containerName(container),
  ];
}

/** A container's names without their leading `/`, as docker ps shows them. */
function containerName(container: Pick<ContainerItem, "Names">): string {
  return container.Names.map((name) => name.replace(/^\//, "")).join(",");
}

/** `docklens containers`: the columns of `docker ps`. */
export function containersTable(
  containers: ContainerItem[],
  colors: ChalkInstance,
  now = Date.now(),
): string {
  return renderTable(
    CONTAINER_COLUMNS,
    containers.map((container) => containerRow(container, colors, now)),
    colors,
  );
}

/** What `docklens ps` shows of the containers it was given. */
export interface PsView {
  /** Ids and command lines whole. */
  full?: boolean;
  /** `-q`: `cluster/id` a line. */
  quiet?: boolean;
  /** A docker-style template: `{{.Cluster}} {{.Names}}`. */
  format?: string;
}

/** Order of `ps`: by cluster id, as every list across clusters, then container name. */
function byClusterThenName(a: ClusterContainerItem, b: ClusterContainerItem): number {
  return a.cluster.id - b.cluster.id || compareStrings(containerName(a), containerName(b));
}

/**
 * `docklens ps`: docker ps's columns after a CLUSTER column, sorted by cluster then name, and a
 * PROJECT column when any container belongs to a compose project or stack.
 */
export function psTable(
  containers: ClusterContainerItem[],
  colors: ChalkInstance,
  view: PsView = {},
  now = Date.now(),
): string {
  const sorted = [...containers].sort(byClusterThenName);
  if (view.quiet)
    return sorted
      .map(
        (container) =>
          `${container.cluster.name}/${view.full ? container.Id : shortId(container.Id)}`,
      )
      .join("\n");
  if (view.format)
    return sorted.map((container) => fillTemplate(view.format!, container, now)).join("\n");
  const projects = sorted.some((container) => projectOf(container) !== undefined);
  const rows = sorted.map((container) => [
    container.cluster.name,
    ...containerRow(container, colors, now, view.full),
    ...(projects ? [projectOf(container) ?? ""] : []),
  ]);
  return renderTable(
    ["CLUSTER", ...CONTAINER_COLUMNS, ...(projects ? ["PROJECT"] : [])],
    rows,
    colors,
  );
}

/** The fields a `--format` template may name, as docker's do (`{{.ID}}`, `{{.Names}}`), and `{{.Cluster}}`. */
function fillTemplate(template: string, container: ClusterContainerItem, now: number): string {
  const fields: Record<string, string> = {
    Cluster: container.cluster.name,
    ID: shortId(container.Id),
    Image: container.Image,
    Command: JSON.stringify(container.Command),
    CreatedAt: container.Created,
    RunningFor: timeAgo(container.Created, now),
    Status: container.Status,
    State: container.State,
    Ports: formatPorts(container.Ports ?? []),
    Names: containerName(container),
    Project: projectOf(container) ?? "",
  };
  return template
    .replace(/\{\{\s*\.(\w+)\s*\}\}/g, (whole, name: string) => fields[name] ?? whole)
    .replace(/\\t/g, "\t");
}

/** `docklens ps --group`: each compose project or stack, its services, running of total, and its clusters. */
export function projectsTable(containers: ClusterContainerItem[], colors: ChalkInstance): string {
  const rows = groupProjects(containers).map((project) => [
    project.name,
    project.services.join(","),
    (project.running === project.total
      ? colors.green
      : project.running
        ? colors.yellow
        : colors.red)(`${project.running}/${project.total}`),
    project.clusters.map((cluster) => cluster.name).join(","),
  ]);
  return renderTable(["PROJECT", "SERVICES", "RUNNING", "CLUSTERS"], rows, colors);
}
