// Containers as docker ps shows them: one cluster's (`containers`) or every cluster's (`ps`).
import type { ChalkInstance } from "chalk";
import {
  newestFirst,
  type ClusterContainerItem,
  type ContainerItem,
} from "../../core/containers/containers.ts";
import { groupProjects, projectOf } from "../../core/containers/projects.ts";
import { familiarReference } from "../../core/objects/references.ts";
import { goTime, humanSize, renderTable, shortId, timeAgo, truncate } from "./format.ts";
import { formatRows, GO_JSON, type MarshaledRow, type RowKind } from "./formatted.ts";
import { formatPorts } from "./ports.ts";
import { printed, type TemplateValue } from "./template-run.ts";

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

/** docker ps's SIZE: the writable layer, and the image's size under it (`virtual`) when the engine sent one. */
function containerSize(container: ContainerItem): string {
  return (
    humanSize(container.SizeRw ?? 0, 3) +
    (container.SizeRootFs ? ` (virtual ${humanSize(container.SizeRootFs, 3)})` : "")
  );
}

/**
 * A row of {@link CONTAINER_COLUMNS}; `full` keeps ids and commands whole (`--no-trunc`), `size`
 * adds docker ps -s's SIZE.
 */
function containerRow(
  container: ContainerItem,
  colors: ChalkInstance,
  now = Date.now(),
  { full = false, size = false }: { full?: boolean; size?: boolean } = {},
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
    ...(size ? [containerSize(container)] : []),
  ];
}

/** A container's names without their leading `/`, as docker ps shows them. */
function containerName(container: Pick<ContainerItem, "Names">): string {
  return container.Names.map((name) => name.replace(/^\//, "")).join(",");
}

/** The columns of `docker ps`, and SIZE with `--size`. */
const columns = (size?: boolean) => [...CONTAINER_COLUMNS, ...(size ? ["SIZE"] : [])];

/** `docklens containers`: the columns of `docker ps`, or each container as `format` says. */
export function containersTable(
  containers: ContainerItem[],
  colors: ChalkInstance,
  { format, size }: Omit<PsView, "full" | "quiet"> = {},
  now = Date.now(),
): string {
  const table = () =>
    renderTable(
      columns(size),
      containers.map((container) => containerRow(container, colors, now, { size })),
      colors,
    );
  if (format === undefined) return table();
  const rows = containers.map((container) => containerData(container, { now, trunc: true }));
  return formatRows(format, rows, CONTAINER_KIND, table);
}

/** What `docklens ps` shows of the containers it was given. */
export interface PsView {
  /** Ids and command lines whole. */
  full?: boolean;
  /** `-q`: an id a line, `cluster/id` unless `oneCluster`. */
  quiet?: boolean;
  /**
   * One cluster asked (named, or a config's only one): `-q` prints bare ids, as docker ps does,
   * for `docker stop $(…)`, and the table has no CLUSTER column, as docker's has none.
   */
  oneCluster?: boolean;
  /** docker's `--format`: a template (`{{.Cluster}} {{.Names}}`), `json`, or `table ...`. */
  format?: string;
  /** `--size`: docker ps -s's SIZE column. */
  size?: boolean;
}

/**
 * `docklens ps`: docker ps's columns after a CLUSTER column (none for one cluster), newest first
 * as docker lists them (those of one second by cluster id, then in the engine's order), and a
 * PROJECT column when any container belongs to a compose project or stack.
 */
export function psTable(
  containers: ClusterContainerItem[],
  colors: ChalkInstance,
  view: PsView = {},
  now = Date.now(),
): string {
  const sorted = newestFirst(containers);
  const across = !view.oneCluster;
  if (view.quiet)
    return sorted
      .map((container) => {
        const id = view.full ? container.Id : shortId(container.Id);
        return view.oneCluster ? id : `${container.cluster.name}/${id}`;
      })
      .join("\n");
  const table = () => {
    const projects = sorted.some((container) => projectOf(container) !== undefined);
    const rows = sorted.map((container) => [
      ...(across ? [container.cluster.name] : []),
      ...containerRow(container, colors, now, view),
      ...(projects ? [projectOf(container) ?? ""] : []),
    ]);
    return renderTable(
      [...(across ? ["CLUSTER"] : []), ...columns(view.size), ...(projects ? ["PROJECT"] : [])],
      rows,
      colors,
    );
  };
  if (view.format === undefined) return table();
  const rows = sorted.map((container) => ({
    ...containerData(container, { now, trunc: !view.full }),
    Cluster: container.cluster.name,
    Project: projectOf(container) ?? "",
  }));
  return formatRows(view.format, rows, PS_KIND, table);
}

/** The fields of docker's container formatter (cli/command/formatter/container.go), and their headers. */
const CONTAINER_KIND: RowKind = {
  type: "*formatter.ContainerContext",
  headers: {
    ID: "CONTAINER ID",
    Names: "NAMES",
    Image: "IMAGE",
    Command: "COMMAND",
    CreatedAt: "CREATED AT",
    RunningFor: "CREATED",
    Ports: "PORTS",
    State: "STATE",
    Status: "STATUS",
    Size: "SIZE",
    Labels: "LABELS",
    Label: "LABEL",
    Mounts: "MOUNTS",
    LocalVolumes: "LOCAL VOLUMES",
    Networks: "NETWORKS",
    Platform: "PLATFORM",
  },
};

/** `ps` adds the cluster, and the compose project or stack. */
const PS_KIND: RowKind = {
  ...CONTAINER_KIND,
  headers: { ...CONTAINER_KIND.headers, Cluster: "CLUSTER", Project: "PROJECT" },
};

/**
 * A container as docker's formatter shows it to a template. With `trunc` (docker's default, not
 * `--no-trunc`), ids are short, the command and mount names cut, the image a familiar name, and
 * only the first name shown.
 */
function containerData(
  container: ContainerItem,
  { now, trunc }: { now: number; trunc: boolean },
): MarshaledRow {
  const names = container.Names.map((name) => name.replace(/^\//, ""));
  const labels = container.Labels ?? {};
  const platform = (
    container.ImageManifestDescriptor as { platform?: Record<string, string> } | undefined
  )?.platform;
  const mountName = (mount: ContainerItem["Mounts"][number]) => mount.Name || mount.Source;
  return {
    ID: trunc ? shortId(container.Id) : container.Id,
    Names: trunc ? (names.find((name) => !name.includes("/")) ?? "") : names.join(","),
    Image: containerImage(container, trunc),
    Command: JSON.stringify(trunc ? truncate(container.Command, 20) : container.Command),
    CreatedAt: goTime(container.Created),
    RunningFor: timeAgo(container.Created, now),
    Ports: formatPorts(container.Ports ?? []),
    State: container.State,
    Status: container.Status,
    Size: containerSize(container),
    // Sorted as Go sorts strings, by code unit: `k=v`, `=` even for an empty value.
    Labels: Object.entries(labels)
      .map(([key, value]) => `${key}=${value}`)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .join(","),
    Label: (name: TemplateValue) => labels[printed(name)] ?? "",
    Mounts: (container.Mounts ?? [])
      .map((mount) => (trunc ? truncate(mountName(mount), 15) : mountName(mount)))
      .join(","),
    LocalVolumes: String(
      (container.Mounts ?? []).filter((mount) => mount.Driver === "local").length,
    ),
    Networks: Object.keys(container.NetworkSettings?.Networks ?? {})
      .sort()
      .join(","),
    Platform: platform
      ? [platform.os, platform.architecture, platform.variant].filter(Boolean).join("/")
      : null,
    // {{json .}} writes docker's *Platform, an OCI platform: its fields in Go's order, the
    // optional ones when set.
    [GO_JSON]: { Platform: platform ? ociPlatform(platform) : null },
  };
}

/** Whether Go's `omitempty` keeps a value: a non-empty string or list. */
const isSet = (value: unknown) => (Array.isArray(value) ? value.length > 0 : Boolean(value));

/** An OCI platform as json.Marshal writes ocispec.Platform (architecture, os, then the optional). */
function ociPlatform(platform: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    ["architecture", "os", "os.version", "os.features", "variant"].flatMap((key) =>
      key === "architecture" || key === "os" || isSet(platform[key])
        ? [[key, platform[key] ?? ""]]
        : [],
    ),
  );
}

/** docker's `Image` field: an image id cut short, or (cut) the familiar name without a digest. */
function containerImage(container: ContainerItem, trunc: boolean): string {
  if (!container.Image) return "<no image>";
  if (!trunc) return container.Image;
  if (shortId(container.ImageID) === shortId(container.Image)) return shortId(container.Image);
  return familiarReference(container.Image.replace(/@sha256:[0-9a-f]+$/, ""));
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
