// The containers view's rows and filters, apart from its template. Rows are made once per list
// read, flat and with their search text precomputed, and kept in shallow refs: 12,000 of them
// must filter in a few milliseconds a keystroke and cost no reactive proxies.
import { formatPorts, healthOf, nameOf, projectOf, timeAgo } from "./format.ts";
import type { ClusterRef, ContainerItem, HistoryContainer } from "./types.ts";

/** One row of the containers table. */
export interface ContainerRow {
  /** Unique across clusters: the cluster's id and the container's id. */
  key: string;
  clusterId: number;
  cluster: string;
  id: string;
  name: string;
  image: string;
  state: string;
  health: string;
  status: string;
  ports: string;
  project: string;
  created: string;
  labels: Record<string, string>;
  /** Lower-case name, image, project and cluster, for the search box. */
  search: string;
  /** A container the engine removed, from history: it links to its page by its id. */
  removed?: true;
}

/** A row of a container of `cluster`. */
export function toRow(item: ContainerItem, cluster: ClusterRef): ContainerRow {
  const name = nameOf(item);
  const project = projectOf(item.Labels);
  return {
    key: `${cluster.id}/${item.Id}`,
    clusterId: cluster.id,
    cluster: cluster.name,
    id: item.Id,
    name,
    image: item.Image,
    state: item.State,
    health: healthOf(item.Status),
    status: item.Status,
    ports: formatPorts(item.Ports),
    project,
    created: item.Created,
    labels: item.Labels ?? {},
    search: `${name}\n${item.Image}\n${project}\n${cluster.name}`.toLowerCase(),
  };
}

/**
 * A row of a container the engine removed, from its last record in history (`/history/containers`):
 * its state `removed`, its status its last (`Exited (137)`) and when it went.
 */
export function removedRow(record: HistoryContainer): ContainerRow {
  const inspect = record.inspect as {
    Created?: string;
    Config?: { Labels?: Record<string, string> | null };
  };
  const labels = inspect.Config?.Labels ?? {};
  const project = projectOf(labels);
  const last = record.exitCode === null ? record.state : `Exited (${record.exitCode})`;
  const when = record.removed ?? record.recorded;
  return {
    key: `${record.cluster.id}/${record.id}`,
    clusterId: record.cluster.id,
    cluster: record.cluster.name,
    id: record.id,
    name: record.name,
    image: record.image,
    state: "removed",
    health: "",
    status: `${last}, removed ${timeAgo(when)}`,
    ports: "",
    project,
    created: inspect.Created ?? when,
    labels,
    search: `${record.name}\n${record.image}\n${project}\n${record.cluster.name}`.toLowerCase(),
    removed: true,
  };
}

/** What the controls above the table ask for; each is a query parameter of the view's URL. */
export interface ContainerFilters {
  q: string;
  /** Cluster names, comma-separated; '' for all. */
  cluster: string;
  status: string;
  /** `healthy`, `unhealthy`, `starting` or `none`. */
  health: string;
  /** `key` or `key=value`. */
  label: string;
  project: string;
}

/** Every control at rest: all containers of every cluster. */
export const NO_FILTERS: ContainerFilters = {
  q: "",
  cluster: "",
  status: "",
  health: "",
  label: "",
  project: "",
};

/**
 * The test a row must pass, made once per change of the filters (not once per row): docker's
 * own meaning for status, health and label, done here so that live updates need no new query.
 */
export function rowFilter(filters: ContainerFilters): ((row: ContainerRow) => boolean) | undefined {
  const tests: Array<(row: ContainerRow) => boolean> = [];
  const q = filters.q.trim().toLowerCase();
  if (q) tests.push((row) => row.search.includes(q));
  if (filters.cluster) {
    const names = new Set(filters.cluster.split(","));
    tests.push((row) => names.has(row.cluster) || names.has(String(row.clusterId)));
  }
  if (filters.status) tests.push((row) => row.state === filters.status);
  if (filters.health) {
    const want = filters.health === "none" ? "" : filters.health;
    tests.push((row) => row.health === want);
  }
  if (filters.label) {
    const [key, ...rest] = filters.label.split("=");
    const value = rest.length ? rest.join("=") : undefined;
    tests.push((row) => (value === undefined ? key! in row.labels : row.labels[key!] === value));
  }
  if (filters.project) tests.push((row) => row.project === filters.project);
  if (!tests.length) return undefined;
  return (row) => tests.every((test) => test(row));
}

/** The states docker's `status` filter knows. */
export const STATES = ["created", "restarting", "running", "removing", "paused", "exited", "dead"];
