// Keeping a container's page live from `/events` rather than from a timer: its events re-read
// it, once per burst. (The lists are pushed by the watch, src/web/fleet-watch.ts.)
import { onBeforeUnmount, watch, type Ref } from "vue";
import { describeError, keepOpen, streamNdjson, withQuery } from "./api.ts";
import type { EventLine } from "./types.ts";

/** Wait this long after a cluster's last event before reading it again. */
const DEBOUNCE_MS = 400;

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
    // The last action of a burst says it: a destroy is a container's last event, and what comes
    // after it (`docker rm -f x && docker run --name x`) is a new container of that name.
    last = action;
    clearTimeout(timer);
    timer = setTimeout(() => {
      changed(last);
      last = "";
    }, DEBOUNCE_MS);
  };
  function follow() {
    controller?.abort();
    // A burst of the last container's is not this one's.
    clearTimeout(timer);
    last = "";
    const current = (controller = new AbortController());
    const path = withQuery("/events", {
      cluster: cluster.value,
      filter: ["type=container", `container=${name.value}`],
    });
    const onLine = (line: EventLine) => {
      if (line.Action && !line.Action.startsWith("exec_")) soon(line.Action);
      else if (line.status === "reconnected") soon("reconnected");
    };
    // Events missed while the stream was being opened again: read the container once more.
    let opened = false;
    const onOpen = () => {
      if (opened) soon("reconnected");
      opened = true;
    };
    void keepOpen(() => streamNdjson(path, onLine, current.signal, onOpen), current.signal, {
      failed: (error) => console.warn(`events: ${describeError(error)}`),
    });
  }
  watch([cluster, name], follow, { immediate: true });
  onBeforeUnmount(() => {
    controller?.abort();
    clearTimeout(timer);
  });
}
