// Keeping a view live from `/events` rather than from a timer: a container event of a cluster
// re-reads that one cluster's list, once per burst of events (a compose up is dozens).
import { onBeforeUnmount, shallowRef, watch, type Ref } from "vue";
import { describeError, streamNdjson, withQuery } from "./api.ts";
import type { EventLine } from "./types.ts";

/** Wait this long after a cluster's last event before reading it again. */
const DEBOUNCE_MS = 400;
/** After the stream ends or fails, open it again after this long. */
const RECONNECT_MS = 2000;

/**
 * Follow the container events of every cluster and call `refresh(clusterId)` after each burst;
 * `resync()` when the stream was opened again (events in the gap are lost, so every list is
 * read once more). Stops when the calling component unmounts.
 */
export function useContainerEvents(
  refresh: (clusterId: number) => void,
  resync: () => void,
): { state: typeof state } {
  const state = shallowRef<"connecting" | "live" | "retrying">("connecting");
  const controller = new AbortController();
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const soon = (clusterId: number) => {
    clearTimeout(timers.get(clusterId));
    timers.set(
      clusterId,
      setTimeout(() => {
        timers.delete(clusterId);
        refresh(clusterId);
      }, DEBOUNCE_MS),
    );
  };
  const onLine = (line: EventLine) => {
    state.value = "live";
    if (!line.cluster) return;
    // Health probes run `exec` every few seconds: they change no list.
    if (line.Type === "container" && !line.Action?.startsWith("exec_")) soon(line.cluster.id);
    else if (line.status === "reconnected") soon(line.cluster.id);
  };
  async function run(first: boolean) {
    while (!controller.signal.aborted) {
      try {
        if (!first) resync();
        first = false;
        state.value = "connecting";
        await streamNdjson<EventLine>("/events?filter=type=container", onLine, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        console.warn(`events: ${describeError(error)}`);
      }
      state.value = "retrying";
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }
  void run(true);
  onBeforeUnmount(() => {
    controller.abort();
    for (const timer of timers.values()) clearTimeout(timer);
  });
  return { state };
}

/**
 * Follow one container's events (`/events` of its cluster, filtered to its name) and call
 * `changed(action)` after each burst: `destroy` when it was removed, else its last action, and
 * `reconnected` after a gap in the stream. A new name follows that one instead.
 */
export function useObjectEvents(
  cluster: Ref<string>,
  name: Ref<string>,
  changed: (action: string) => void,
): void {
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = "";
  const soon = (action: string) => {
    // A removal outranks whatever came with it (a stop, a die) in the same burst.
    last = last === "destroy" ? last : action;
    clearTimeout(timer);
    timer = setTimeout(() => {
      changed(last);
      last = "";
    }, DEBOUNCE_MS);
  };
  function follow() {
    controller?.abort();
    const current = (controller = new AbortController());
    const path = withQuery("/events", {
      cluster: cluster.value,
      filter: ["type=container", `container=${name.value}`],
    });
    const onLine = (line: EventLine) => {
      if (line.Action && !line.Action.startsWith("exec_")) soon(line.Action);
      else if (line.status === "reconnected") soon("reconnected");
    };
    void (async () => {
      while (!current.signal.aborted) {
        await streamNdjson<EventLine>(path, onLine, current.signal).catch((error: unknown) => {
          if (!current.signal.aborted) console.warn(`events: ${describeError(error)}`);
        });
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    })();
  }
  watch([cluster, name], follow, { immediate: true });
  onBeforeUnmount(() => {
    controller?.abort();
    clearTimeout(timer);
  });
}
