// One read per view: its data, its error as a notice, aborted when the view goes away.
import { onBeforeUnmount, shallowRef, watch, type WatchSource } from "vue";
import { describeError, isAbort } from "./api.ts";

/**
 * Run `read` now (and again whenever `source` changes), keeping its result in a shallow ref:
 * bodies are large and only ever replaced, never changed in place, so no deep reactivity.
 */
export function useLoad<T>(read: (signal: AbortSignal) => Promise<T>, source?: WatchSource) {
  const data = shallowRef<T>();
  const error = shallowRef("");
  const loading = shallowRef(false);
  let controller: AbortController | undefined;
  async function reload() {
    controller?.abort();
    const current = (controller = new AbortController());
    loading.value = true;
    try {
      const result = await read(current.signal);
      // A read that another replaced says nothing over it.
      if (controller !== current) return;
      data.value = result;
      error.value = "";
    } catch (caught) {
      if (!isAbort(caught) && controller === current) error.value = describeError(caught);
    } finally {
      if (controller === current) loading.value = false;
    }
  }
  // Another thing to read: what was read of the last one goes at once, never shown under it.
  if (source)
    watch(source, () => {
      data.value = undefined;
      error.value = "";
      void reload();
    });
  void reload();
  onBeforeUnmount(() => controller?.abort());
  return { data, error, loading, reload };
}

/**
 * Call `reload` every `ms` while the tab is shown, and at once when it is shown again: a view
 * kept live by reading again, where no stream says what changed. Stops when the view goes away.
 */
export function usePoll(reload: () => unknown, ms: number): void {
  const tick = () => {
    if (document.visibilityState === "visible") void reload();
  };
  const timer = setInterval(tick, ms);
  document.addEventListener("visibilitychange", tick);
  onBeforeUnmount(() => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", tick);
  });
}
