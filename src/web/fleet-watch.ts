// The fleet's containers, pushed: one `/list/containers?watch=true` stream for the whole page,
// shared by the containers table, the clusters view and its overview. Each cluster's snapshot
// comes at once (a hung engine says `waiting`, then `down`), then one line per container that
// changed: 12,000 rows are made once, and a change remakes one row.
import { onBeforeUnmount, shallowRef, watch } from "vue";
import { describeError, keepOpen, tokenGeneration, tokenWanted, watchContainers } from "./api.ts";
import { FleetModel, type FleetView } from "./fleet-model.ts";
import type { ContainerWatchLine, ErrorBody } from "./types.ts";

/** The stream's own state, for the "live" pill. */
export type WatchState = "connecting" | "live" | "retrying";

/** The stream outlives its last view this long: going from one view to another reads nothing again. */
const GRACE_MS = 30_000;

const view = shallowRef<FleetView>({ clusters: [], rows: [] });
const state = shallowRef<WatchState>("connecting");
const fleet = new FleetModel();
let users = 0;
let controller: AbortController | undefined;
let grace: ReturnType<typeof setTimeout> | undefined;
let frame = 0;

/** Publish the clusters as they are, once a frame however many lines came in it. */
function publish() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    view.value = fleet.view();
  });
}

/** Show no cluster, now: what the watch said is no longer anyone's to see. */
function forget() {
  fleet.clear();
  view.value = fleet.view();
}

/** Apply one line of the watch to the cluster it is about. */
function apply(line: ContainerWatchLine | { error: ErrorBody }) {
  if (!("type" in line)) {
    console.warn(`watch: ${line.error.code}: ${line.error.message}`);
    return;
  }
  if (line.type === "snapshot" && !performance.getEntriesByName("containers:snapshot").length)
    performance.mark("containers:snapshot");
  if (fleet.apply(line)) publish();
}

function start() {
  controller?.abort();
  const { signal } = (controller = new AbortController());
  const open = () => {
    state.value = "connecting";
    // Marks for bench/ui.mjs (performance.getEntriesByType("mark")): where a load's time goes.
    performance.mark("containers:request");
    return watchContainers(apply, signal, () => {
      // What the last stream said stays on screen until this one's lines replace it.
      fleet.reopened();
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
    forget();
  }, GRACE_MS);
  if (!controller) start();
}

// Another token may see other clusters: read them all again, showing none of the last token's.
watch(tokenGeneration, () => {
  forget();
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
