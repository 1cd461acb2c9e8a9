import type { ChalkInstance } from "chalk";
import type { ClusterContainerItem } from "../core/containers.ts";
import type { ListDriftResult } from "../core/drift.ts";
import type { ClusterEvent, EventStatus } from "../core/events.ts";
import type { ImageItem } from "../core/images.ts";
import { groupProjects, projectOf } from "../core/projects.ts";
import { formatBytes, renderTable, shortId, timeAgo } from "./format.ts";
import { CONTAINER_COLUMNS, containerName, containerRow, formatPorts } from "./tables.ts";

/** What `docklens ps` shows of the containers it was given. */
export interface PsView {
  /** Ids and command lines whole. */
  full?: boolean;
  /** `-q`: `cluster/id` a line. */
  quiet?: boolean;
  /** A docker-style template: `{{.Cluster}} {{.Names}}`. */
  format?: string;
}

/** Order of `ps`: by cluster name, then container name. */
function byClusterThenName(a: ClusterContainerItem, b: ClusterContainerItem): number {
  return (
    a.cluster.name.localeCompare(b.cluster.name) || containerName(a).localeCompare(containerName(b))
  );
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

/**
 * `docklens images`: docker images's columns (a row per tag; `<none>` for an untagged image) and
 * how many containers use each; a CLUSTER column first when the images come from several.
 */
export function imagesTable(
  images: Array<ImageItem & { cluster?: { name: string } }>,
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const across = images.some((image) => image.cluster);
  const rows = images.flatMap((image) => {
    const tags = image.RepoTags?.filter((tag) => tag !== "<none>:<none>") ?? [];
    return (tags.length ? tags : ["<none>:<none>"]).map((tag) => {
      const colon = tag.lastIndexOf(":");
      const row = [
        tag.slice(0, colon),
        tag.slice(colon + 1),
        shortId(image.Id),
        timeAgo(image.Created, now),
        formatBytes(image.Size),
        String(image.Containers),
      ];
      return across ? [image.cluster?.name ?? "", ...row] : row;
    });
  });
  return renderTable(
    [
      ...(across ? ["CLUSTER"] : []),
      "REPOSITORY",
      "TAG",
      "IMAGE ID",
      "CREATED",
      "SIZE",
      "CONTAINERS",
    ],
    rows,
    colors,
  );
}

/**
 * `docklens drift`: each shared reference, the image it is on each cluster, drift in red; then
 * the engines' versions.
 */
export function driftView(result: ListDriftResult, colors: ChalkInstance): string {
  const rows = result.images.flatMap((image) =>
    image.clusters.map((entry, index) => [
      index ? "" : image.reference,
      entry.cluster.name,
      entry.imageIds.map(shortId).join(","),
      index ? "" : image.drift ? colors.red("drift") : colors.green("same"),
    ]),
  );
  const versions = new Set(result.engines.map((engine) => engine.version));
  const engines = result.engines.map((engine) => [
    engine.cluster.name,
    versions.size > 1 ? colors.yellow(engine.version) : engine.version,
  ]);
  return [
    renderTable(["REFERENCE", "CLUSTER", "IMAGE ID", "STATE"], rows, colors),
    "",
    renderTable(["CLUSTER", "ENGINE"], engines, colors),
  ].join("\n");
}

/**
 * `docklens events`: a line per event as `docker events` prints it, after its cluster:
 * `2026-11-22T10:00:00.123456789Z alpha container start 0b5b110b833d (image=…, name=web)`; a
 * cluster that drops out or comes back says so.
 */
export function eventLine(item: ClusterEvent | EventStatus, colors: ChalkInstance): string {
  if (isStatus(item)) {
    const text = `${item.cluster.name}: ${item.status}${item.error ? ` (${item.error.message})` : ""}`;
    return item.status === "disconnected" ? colors.yellow(text) : colors.green(text);
  }
  const event = item as ClusterEvent & {
    Type?: string;
    Action?: string;
    time?: number;
    timeNano?: number | bigint;
    Actor?: { ID?: string; Attributes?: Record<string, string> };
  };
  const nanos =
    event.timeNano !== undefined
      ? BigInt(event.timeNano)
      : BigInt(event.time ?? 0) * 1_000_000_000n;
  const seconds = new Date(Number(nanos / 1_000_000n)).toISOString().slice(0, 19);
  const time = `${seconds}.${String(nanos % 1_000_000_000n).padStart(9, "0")}Z`;
  const attributes = Object.entries(event.Actor?.Attributes ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join(", ");
  const what = [event.cluster.name, event.Type ?? "", event.Action ?? "", event.Actor?.ID ?? ""];
  return `${colors.dim(time)} ${what.join(" ")}${attributes ? ` (${attributes})` : ""}`;
}

/** A status line of the event stream, rather than an engine's event (which carries a Type). */
function isStatus(item: ClusterEvent | EventStatus): item is EventStatus {
  return !("Type" in item) && (item.status === "disconnected" || item.status === "reconnected");
}
