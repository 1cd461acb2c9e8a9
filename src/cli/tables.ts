import type { ChalkInstance } from "chalk";
import type {
  ClusterRecord,
  ContainerItem,
  ListDetailRoutesResult,
  ListProcessesResult,
  StatsSample,
  VolumeItem,
} from "../index.ts";
import type Dockerode from "dockerode";
import {
  formatBytes,
  formatHostPort,
  formatLabels,
  renderTable,
  shortId,
  timeAgo,
  truncate,
} from "./format.ts";

export { createColors } from "./format.ts";

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

/**
 * `docklens clusters`: one line per cluster with its engine version and state, and, when
 * `unhealthy` counts are given (by cluster id), how many of its containers are unhealthy.
 */
export function clustersTable(
  clusters: ClusterRecord[],
  colors: ChalkInstance,
  unhealthy?: Map<number, number>,
): string {
  const rows = clusters.map((cluster) => {
    const info = cluster.docker as {
      ServerVersion?: string;
      Containers?: number;
      ContainersRunning?: number;
      Images?: number;
      Volumes?: number;
    };
    return [
      String(cluster.id),
      cluster.fullname,
      formatHostPort(cluster.host, cluster.port),
      cluster.error ? colors.red(cluster.error.code) : colors.green("up"),
      info.ServerVersion ?? "",
      cluster.error ? "" : `${info.Containers ?? 0} (${info.ContainersRunning ?? 0} running)`,
      cluster.error ? "" : String(info.Images ?? 0),
      cluster.error ? "" : String(info.Volumes ?? 0),
      ...(unhealthy
        ? [cluster.error ? "" : unhealthyCount(unhealthy.get(cluster.id) ?? 0, colors)]
        : []),
    ];
  });
  const head = [
    "ID",
    "CLUSTER",
    "ENDPOINT",
    "STATE",
    "ENGINE",
    "CONTAINERS",
    "IMAGES",
    "VOLUMES",
    ...(unhealthy ? ["UNHEALTHY"] : []),
  ];
  const table = renderTable(head, rows, colors);
  const errors = clusters
    .filter((cluster) => cluster.error)
    .map((cluster) => colors.red(`${cluster.name}: ${cluster.error!.message}`));
  return [table, ...errors].join("\n");
}

function unhealthyCount(count: number, colors: ChalkInstance): string {
  return count ? colors.red(String(count)) : "0";
}

/** A port as the container list shows it; container detail's ports are turned into these. */
export type PortItem = Pick<Dockerode.Port, "PrivatePort" | "Type"> & {
  IP?: string;
  PublicPort?: number;
};

/**
 * Ports as `docker ps` prints them, by the docker CLI's own rules (`DisplayablePorts`), so the
 * column reads the same as docker's and never changes between runs (the engine lists ports in no
 * stable order): sorted by private port, host address, public port and protocol; runs of
 * consecutive ports as ranges (`8000-8002/tcp`); ports published elsewhere than their own number
 * (`127.0.0.1:18080->8080/tcp`) last.
 */
export function formatPorts(ports: PortItem[]): string {
  const unique = [
    ...new Map(
      ports.map((port) => [`${port.IP}|${port.PrivatePort}|${port.PublicPort}|${port.Type}`, port]),
    ).values(),
  ];
  const sorted = unique.sort(
    (a, b) =>
      a.PrivatePort - b.PrivatePort ||
      compare(a.IP ?? "", b.IP ?? "") ||
      (a.PublicPort ?? 0) - (b.PublicPort ?? 0) ||
      compare(a.Type, b.Type),
  );
  const groups = new Map<string, { first: number; last: number }>();
  const ranges: string[] = [];
  const mappings: string[] = [];
  const range = (key: string, { first, last }: { first: number; last: number }) => {
    const [ip, type] = key.includes("/") ? (key.split("/") as [string, string]) : ["", key];
    const span = first === last ? `${first}` : `${first}-${last}`;
    return `${ip ? `${ip}:${span}->${span}` : span}/${type}`;
  };
  for (const port of sorted) {
    if (port.IP && port.PublicPort !== port.PrivatePort) {
      const host = port.IP.includes(":") ? `[${port.IP}]` : port.IP;
      mappings.push(`${host}:${port.PublicPort}->${port.PrivatePort}/${port.Type}`);
      continue;
    }
    const key = port.IP ? `${port.IP}/${port.Type}` : port.Type;
    const group = groups.get(key);
    if (!group) groups.set(key, { first: port.PrivatePort, last: port.PrivatePort });
    else if (port.PrivatePort === group.last + 1) group.last = port.PrivatePort;
    else {
      // A gap ends the run; the group keeps its place, in the order the groups began, as docker's does.
      ranges.push(range(key, group));
      Object.assign(group, { first: port.PrivatePort, last: port.PrivatePort });
    }
  }
  return [...ranges, ...[...groups].map(([key, group]) => range(key, group)), ...mappings].join(
    ", ",
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The columns of `docker ps`. */
export const CONTAINER_COLUMNS = [
  "CONTAINER ID",
  "IMAGE",
  "COMMAND",
  "CREATED",
  "STATUS",
  "PORTS",
  "NAMES",
];

/** A row of {@link CONTAINER_COLUMNS}; `full` keeps ids and commands whole (`--no-trunc`). */
export function containerRow(
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
export function containerName(container: Pick<ContainerItem, "Names">): string {
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

/** `docklens networks`: `docker network ls` plus subnet and creation time. */
export function networksTable(
  networks: Dockerode.NetworkInspectInfo[],
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const rows = networks.map((network) => [
    shortId(network.Id),
    network.Name,
    network.Driver,
    network.Scope,
    (network.IPAM?.Config ?? [])
      .map((config) => config.Subnet)
      .filter(Boolean)
      .join(","),
    timeAgo(network.Created, now),
  ]);
  return renderTable(["NETWORK ID", "NAME", "DRIVER", "SCOPE", "SUBNET", "CREATED"], rows, colors);
}

/** `docklens volumes`: `docker volume ls` plus scope, creation time and labels. */
export function volumesTable(
  volumes: VolumeItem[],
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const rows = volumes.map((volume) => [
    volume.Driver,
    volume.Name,
    volume.Scope,
    volume.CreatedAt ? timeAgo(volume.CreatedAt, now) : "",
    formatLabels(volume.Labels),
  ]);
  return renderTable(["DRIVER", "VOLUME NAME", "SCOPE", "CREATED", "LABELS"], rows, colors);
}

/** `docklens detail`: the route index. */
export function routesTable(result: ListDetailRoutesResult, colors: ChalkInstance): string {
  return renderTable(
    ["PATH", "METHODS", "PARAMS"],
    result.routes.map((route) => [route.path, route.methods.join(","), route.params.join(", ")]),
    colors,
  );
}

/** `docklens stats`: the columns of `docker stats`. */
export function statsTable(sample: StatsSample, colors: ChalkInstance): string {
  const { summary, raw } = sample;
  const percent = (value: number) => `${value.toFixed(2)}%`;
  const pair = (a: number, b: number) => `${formatBytes(a)} / ${formatBytes(b)}`;
  const row = [
    shortId(typeof raw.id === "string" ? raw.id : ""),
    (typeof raw.name === "string" ? raw.name : "").replace(/^\//, ""),
    percent(summary.cpuPercent),
    pair(summary.memoryUsage, summary.memoryLimit),
    percent(summary.memoryPercent),
    pair(summary.netRx, summary.netTx),
    pair(summary.blockRead, summary.blockWrite),
    String(summary.pids),
  ];
  return renderTable(
    ["CONTAINER ID", "NAME", "CPU %", "MEM USAGE / LIMIT", "MEM %", "NET I/O", "BLOCK I/O", "PIDS"],
    [row],
    colors,
  );
}

/** `docklens top`: the engine's titles and rows, as `docker top` prints them. */
export function processesTable(result: ListProcessesResult, colors: ChalkInstance): string {
  return renderTable(result.Titles, result.Processes, colors);
}
