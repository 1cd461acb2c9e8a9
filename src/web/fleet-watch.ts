// The fleet's containers, pushed: one `/list/containers?watch=true` stream for the whole page,
// shared by the containers table, the clusters view and its overview. Each cluster's snapshot
// comes at once (a hung engine says `waiting`, then `down`), then one line per container that
// changed: 12,000 rows are made once, and a change remakes one row.
import { onBeforeUnmount, shallowRef, watch } from "vue";
import { describeError, keepOpen, tokenGeneration, tokenWanted, watchContainers } from "./api.ts";
import { toRow, type ContainerRow } from "./containers-model.ts";
import type { ClusterRef, ContainerWatchLine, ErrorBody } from "./types.ts";

/** A cluster as the watch said it last. */
export interface WatchedCluster {
  cluster: ClusterRef;
  state: "waiting" | "live" | "down";
  error?: ErrorBody;
  rows: ContainerRow[];
}

/** What the views draw: every cluster in id order, and their rows, flat, in the same order. */
export interface FleetView {
  clusters: WatchedCluster[];
  rows: ContainerRow[];
}

/** The stream's own state, for the "live" pill. */
export type WatchState = "connecting" | "live" | "retrying";

/** The stream outlives its last view this long: going from one view to another reads nothing again. */
const GRACE_MS = 30_000;

const view = shallowRef<FleetView>({ clusters: [], rows: [] });
const state = shallowRef<WatchState>("connecting");
/** Each cluster by id, with its rows' places by container id. */
const clusters = new Map<number, WatchedCluster & { index: Map<string, number> }>();
let users = 0;
let controller: AbortController | undefined;
let grace: ReturnType<typeof setTimeout> | undefined;
let frame = 0;

/** Publish the clusters as they are, once a frame however many lines came in it. */
function publish() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    const list = [...clusters.values()]
      .sort((a, b) => a.cluster.id - b.cluster.id)
      .map(({ index: _, ...cluster }) => cluster);
    view.value = { clusters: list, rows: list.flatMap((cluster) => cluster.rows) };
  });
}

function entry(cluster: ClusterRef) {
  let found = clusters.get(cluster.id);
  if (!found) {
    found = { cluster, state: "waiting", rows: [], index: new Map() };
    clusters.set(cluster.id, found);
  }
  return found;
}

/** Apply one line of the watch to the cluster it is about. */
function apply(line: ContainerWatchLine | { error: ErrorBody }) {
  if (!("type" in line)) {
    console.warn(`watch: ${line.error.code}: ${line.error.message}`);
    return;
  }
  if (line.type === "snapshot" && !performance.getEntriesByName("containers:snapshot").length)
    performance.mark("containers:snapshot");
  const cluster = entry(line.cluster);
  // A cluster's rows are replaced, never changed in place: a view holding the last ones keeps them.
  let rows = cluster.rows;
  if (line.type === "snapshot") {
    rows = line.containers.map((item) => toRow(item, line.cluster));
    cluster.index = new Map(rows.map((row, place) => [row.id, place]));
    Object.assign(cluster, { state: "live", error: undefined });
  } else if (line.type === "down") Object.assign(cluster, { state: "down", error: line.error });
  else if (line.type === "waiting") cluster.state = "waiting";
  else if (line.type === "removed") {
    const place = cluster.index.get(line.id);
    if (place === undefined) return;
    rows = rows.filter((_, at) => at !== place);
    cluster.index = new Map(rows.map((row, at) => [row.id, at]));
  } else {
    const row = toRow(line.container, line.cluster);
    const place = cluster.index.get(row.id);
    rows = [...rows];
    // A new container first, as the engine lists the newest first.
    if (place === undefined) {
      rows.unshift(row);
      cluster.index = new Map(rows.map((one, at) => [one.id, at]));
    } else rows[place] = row;
  }
  cluster.rows = rows;
  publish();
}

function start() {
  controller?.abort();
  const { signal } = (controller = new AbortController());
  const open = () => {
    state.value = "connecting";
    // Marks for bench/ui.mjs (performance.getEntriesByType("mark")): where a load's time goes.
    performance.mark("containers:request");
    return watchContainers(apply, signal, () => {
      // What the last stream said is replaced by what this one says.
      clusters.clear();
      publish();
      state.value = "live";
    });
  };
  void keepOpen(open, signal, {
    // Without a token there is nothing to retry: a token entered starts the stream again.
    paused: () => tokenWanted.value,
    failed: (error) => console.warn(`watch: ${describeError(error)}`),
    retrying: () => (state.value = "retrying"),
  });
}

/** Start the stream before any view asks (main.ts): the lists come while the view's script loads. */
export function prefetchWatch(): void {
  users++;
  release();
}

function release() {
  if (--users > 0) return;
  clearTimeout(grace);
  grace = setTimeout(() => {
    if (users > 0) return;
    controller?.abort();
    controller = undefined;
    clusters.clear();
    view.value = { clusters: [], rows: [] };
  }, GRACE_MS);
  if (!controller) start();
}

// Another token may see other clusters: read them all again, showing none of the last token's.
watch(tokenGeneration, () => {
  clusters.clear();
  view.value = { clusters: [], rows: [] };
  if (controller) start();
});

/**
 * The fleet's containers, live, for a view: the stream opens with the first view that asks and
 * closes a while after the last one went.
 */
export function useFleetWatch(): { view: typeof view; state: typeof state } {
  users++;
  clearTimeout(grace);
  if (!controller) start();
  onBeforeUnmount(release);
  return { view, state };
}
