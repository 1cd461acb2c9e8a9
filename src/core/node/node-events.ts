// A node's `/events` for a hub: the node's one engine event subscription (core/hub/event-hub.ts)
// as the engine's own stream of JSON lines, so that many hubs following a node's cluster hold
// one engine `/events` stream between them.
import type { ClusterConfig } from "../config/cluster-config.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { DocklensError } from "../errors.ts";
import { subscribeEvents, type HubSignal } from "../hub/event-hub.ts";
import { toJsonText } from "../json.ts";

/** Events a slow hub may fall behind by before its stream ends (it then re-lists, as after a gap). */
const MAX_BEHIND = 10_000;

/**
 * The cluster's events from now on as JSON lines, once its engine stream is open (an engine
 * that is down fails here, with its error). The stream ends with an error when the engine's
 * stream drops or the reader falls {@link MAX_BEHIND} events behind: the hub then sees the gap,
 * as it would of an engine of its own, and asks again.
 */
export async function nodeEvents(
  cluster: ClusterConfig,
  options: CoreOptions,
): Promise<AsyncGenerator<Buffer>> {
  const queue: HubSignal[] = [];
  let wake: (() => void) | undefined;
  const subscription = subscribeEvents(cluster, options, (signal) => {
    queue.push(signal);
    wake?.();
  });
  const next = async (): Promise<HubSignal> => {
    while (!queue.length) {
      if (options.signal?.aborted) throw new DocklensError("SHUTTING_DOWN", "the reader left");
      await new Promise<void>((resolve) => {
        wake = resolve;
        options.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      wake = undefined;
    }
    return queue.shift()!;
  };
  try {
    // The first word of the hub: open (`up`), or the engine's error.
    const first = await next();
    if (first.kind === "down") throw new DocklensError(first.error.code, first.error.message);
  } catch (error) {
    subscription.close();
    throw error;
  }
  return (async function* () {
    try {
      for (;;) {
        if (queue.length > MAX_BEHIND)
          throw new DocklensError("CLIENT_TOO_SLOW", "the hub fell too far behind the events");
        const signal = await next();
        if (signal.kind === "down")
          throw new DocklensError(signal.error.code, signal.error.message);
        if (signal.kind === "up") {
          if (signal.reconnected) throw new DocklensError("ENGINE_UNREACHABLE", "events missed");
          continue;
        }
        yield Buffer.from(`${toJsonText(signal.event)}\n`);
      }
    } finally {
      subscription.close();
    }
  })();
}
