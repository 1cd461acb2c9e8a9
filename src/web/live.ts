// Keeping a container's page live from `/events` rather than from a timer: its events re-read
// it, once per burst. (The lists are pushed by the watch, src/web/fleet-watch.ts.)
import { onBeforeUnmount, watch, type Ref } from "vue";
import { describeError, streamNdjson, withQuery } from "./api.ts";
import type { EventLine } from "./types.ts";

/** Wait this long after a cluster's last event before reading it again. */
const DEBOUNCE_MS = 400;
/** After the stream ends or fails, open it again after this long. */
const RECONNECT_MS = 2000;

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
