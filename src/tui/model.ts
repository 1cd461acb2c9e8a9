// The TUI's rows: the containers a watch holds, flat, with the text of each cell made once (engine
// data escaped: control characters never reach the terminal), and the filter and sort over them.
import stringWidth from "string-width";
import type { ContainerWatchLine } from "../core/containers/container-watch.ts";
import type { ContainerItem } from "../core/containers/container-types.ts";
import { escapeControls } from "../cli/render/escape.ts";

/** One container as the table shows it. */
export interface Row {
  key: string;
  cluster: string;
  clusterId: number;
  id: string;
  name: string;
  image: string;
  state: string;
  /** `healthy`, `unhealthy`, `starting`, or "" without a check. */
  health: string;
  status: string;
  ports: string;
  project: string;
  created: string;
  labels: Record<string, string>;
  /** Lower-case name, image, project and cluster, for `/` (as the page's search box). */
  search: string;
}

/** A cluster's state as the watch last told it. */
export interface ClusterState {
  name: string;
  state: "waiting" | "live" | "down";
  error?: string;
}

/** What the watch has told so far: each cluster's state and containers. */
export interface Fleet {
  clusters: Map<number, ClusterState>;
  rows: Map<number, Map<string, Row>>;
}

/** An empty fleet view. */
export const emptyFleet = (): Fleet => ({ clusters: new Map(), rows: new Map() });

/** The row of a container of a cluster. */
export function toRow(cluster: { id: number; name: string }, item: ContainerItem): Row {
  const labels = Object.fromEntries(
    Object.entries(item.Labels ?? {}).map(([k, v]) => [escapeControls(k), escapeControls(v)]),
  );
  const name = escapeControls((item.Names[0] ?? item.Id.slice(0, 12)).replace(/^\//, ""));
  const project = labels["com.docker.compose.project"] ?? "";
  const image = escapeControls(item.Image);
  const status = escapeControls(item.Status);
  const health = /\((healthy|unhealthy|health: starting)\)/.exec(status)?.[1] ?? "";
  const ports = (item.Ports ?? [])
    .map(
      (p) =>
        (p.PublicPort ? `${p.PublicPort}->${p.PrivatePort}` : `${p.PrivatePort}`) + `/${p.Type}`,
    )
    .filter((text, index, all) => all.indexOf(text) === index)
    .join(",");
  return {
    key: `${cluster.id}/${item.Id}`,
    cluster: escapeControls(cluster.name),
    clusterId: cluster.id,
    id: item.Id,
    name,
    image,
    state: escapeControls(item.State),
    health: health === "health: starting" ? "starting" : health,
    status,
    ports: escapeControls(ports),
    project,
    created: item.Created.slice(0, 16).replace("T", " "),
    labels,
    search: `${name}\n${image}\n${project}\n${cluster.name}`.toLowerCase(),
  };
}

/** Apply a line of the watch to `fleet` (in place); true when the table changed. */
export function applyLine(fleet: Fleet, line: ContainerWatchLine): boolean {
  if (line.type === "synced") return false;
  const { id, name } = line.cluster;
  const rows = fleet.rows.get(id) ?? new Map<string, Row>();
  fleet.rows.set(id, rows);
  if (line.type === "snapshot") {
    rows.clear();
    for (const item of line.containers) rows.set(item.Id, toRow(line.cluster, item));
    fleet.clusters.set(id, { name, state: "live" });
  } else if (line.type === "added" || line.type === "modified") {
    rows.set(line.container.Id, toRow(line.cluster, line.container));
  } else if (line.type === "removed") rows.delete(line.id);
  else if (line.type === "waiting") fleet.clusters.set(id, { name, state: "waiting" });
  else if (line.type === "down") {
    rows.clear();
    fleet.clusters.set(id, { name, state: "down", error: escapeControls(line.error.message) });
  }
  return true;
}

/**
 * The test of the filter box: words as the page's search (name, image, project, cluster), and
 * docker's `status=`, `health=` (`none`: no check), `label=key[=value]`, `cluster=`, `project=`.
 */
export function rowFilter(text: string): (row: Row) => boolean {
  const tests: Array<(row: Row) => boolean> = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const [key, ...rest] = word.split("=");
    const value = rest.join("=");
    if (!rest.length) tests.push((row) => row.search.includes(word.toLowerCase()));
    else if (key === "status") tests.push((row) => row.state === value);
    else if (key === "health") tests.push((row) => row.health === (value === "none" ? "" : value));
    else if (key === "cluster")
      tests.push((row) => row.cluster === value || String(row.clusterId) === value);
    else if (key === "project") tests.push((row) => row.project === value);
    else if (key === "label") {
      const [name, ...wanted] = value.split("=");
      const want = wanted.length ? wanted.join("=") : undefined;
      tests.push((row) => (want === undefined ? name! in row.labels : row.labels[name!] === want));
    } else tests.push((row) => row.search.includes(word.toLowerCase()));
  }
  return (row) => tests.every((test) => test(row));
}

/** The table's columns: title, width (0: what is left), and the text of a row's cell. */
export interface Column {
  title: string;
  width: number;
  cell: (row: Row, stats?: Usage) => string;
}

/** CPU and memory of a running container, from the stats rounds. */
export interface Usage {
  cpu: number;
  memory: number;
}

const mib = (bytes: number) =>
  bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)}G` : `${(bytes / 2 ** 20).toFixed(0)}M`;

export const COLUMNS: Column[] = [
  { title: "CLUSTER", width: 10, cell: (row) => row.cluster },
  { title: "NAME", width: 0, cell: (row) => row.name },
  { title: "IMAGE", width: 18, cell: (row) => row.image },
  { title: "STATE", width: 9, cell: (row) => row.state },
  { title: "HEALTH", width: 9, cell: (row) => row.health },
  { title: "STATUS", width: 18, cell: (row) => row.status },
  { title: "CPU", width: 6, cell: (_, u) => (u ? `${u.cpu.toFixed(1)}%` : "") },
  { title: "MEM", width: 6, cell: (_, u) => (u ? mib(u.memory) : "") },
  { title: "PORTS", width: 14, cell: (row) => row.ports },
  { title: "PROJECT", width: 10, cell: (row) => row.project },
  { title: "CREATED", width: 16, cell: (row) => row.created },
];

/** Sort keys by column title: text, or a number for CPU and MEM. */
export function sortRows(
  rows: Row[],
  column: number,
  descending: boolean,
  usage: Map<string, Usage>,
): Row[] {
  const title = COLUMNS[column]!.title;
  const number = (row: Row) => {
    const u = usage.get(row.key);
    return title === "CPU" ? (u?.cpu ?? -1) : (u?.memory ?? -1);
  };
  const compare =
    title === "CPU" || title === "MEM"
      ? (a: Row, b: Row) => number(a) - number(b)
      : (a: Row, b: Row) => {
          const x = COLUMNS[column]!.cell(a);
          const y = COLUMNS[column]!.cell(b);
          return x < y ? -1 : x > y ? 1 : a.key < b.key ? -1 : 1;
        };
  return rows.sort(descending ? (a, b) => compare(b, a) : compare);
}

const segmenter = new Intl.Segmenter();

/** `text` cut and padded to `width` terminal cells (wide characters count two). */
export function fit(text: string, width: number): string {
  let out = "";
  let used = 0;
  const full = stringWidth(text) > width;
  const room = full ? width - 1 : width;
  for (const { segment } of segmenter.segment(text)) {
    const cells = stringWidth(segment);
    if (used + cells > room) break;
    out += segment;
    used += cells;
  }
  if (full && width > 0) {
    out += "…";
    used++;
  }
  return out + " ".repeat(Math.max(0, width - used));
}

/** Columns left out first when the screen is narrow (80x24 keeps name, state, status, CPU, MEM). */
const DROPPED = ["CREATED", "PORTS", "PROJECT", "IMAGE", "HEALTH", "CLUSTER"];

/** The columns shown on a screen `columns` wide, with their widths: the name takes what is left. */
export function layout(columns: number): Array<{ index: number; width: number }> {
  const shown = new Set(COLUMNS.map((_, index) => index));
  const need = () => [...shown].reduce((sum, i) => sum + COLUMNS[i]!.width + 1, 0) + 12;
  for (const title of DROPPED)
    if (need() > columns) shown.delete(COLUMNS.findIndex((column) => column.title === title));
  const name = Math.max(8, columns - need() + 12 - 1);
  return [...shown].map((index) => ({ index, width: COLUMNS[index]!.width || name }));
}
