// Identical engine streams shared: the first follower opens one, every identical one after it
// reads the same items, each from its own queue bounded in bytes, so a slow follower is dropped
// (told why) and never slows the others or the engine; the last to leave closes it.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { Backlog } from "../backlog.ts";
import type { CoreOptions, EngineSlot } from "../engine/fleet.ts";

/** What a follower of a shared stream holds unread at most, by default: past it, it is dropped. */
const MAX_QUEUED_BYTES = 4 << 20;

interface Follower<T> {
  queue: T[];
  /** What it left unread, bounded in bytes. */
  backlog: Backlog;
  sizeOf: (item: T) => number;
  wake?: () => void;
  /** Set when the stream ended (undefined: it ended well) or the follower was dropped. */
  end?: { error?: Error };
}

interface Shared {
  followers: Set<Follower<unknown>>;
  controller: AbortController;
  opened: Promise<void>;
}

const shared = new WeakMap<EngineSlot, Map<string, Shared>>();

/** Options of {@link shareStream}. */
export interface ShareStreamOptions extends CoreOptions {
  /** Bytes a follower may leave unread before it is dropped with `CLIENT_TOO_SLOW`. */
  maxQueuedBytes?: number;
}

/** Options of {@link shareStream} for items other than strings: how many bytes each one holds. */
export interface ShareItemsOptions<T> extends ShareStreamOptions {
  sizeOf: (item: T) => number;
}

/**
 * The lines of the engine stream `key` names on `cluster`, opened by `open` for the first
 * follower and shared by every one that asks for the same `key` while it is open. Opening fails
 * for the follower(s) waiting on it; a follower leaves by aborting its signal or stopping its
 * iteration. A follower hears what comes after it joined. Items other than lines need `sizeOf`.
 */
export async function shareStream(
  cluster: ClusterConfig,
  key: string,
  open: (signal: AbortSignal) => Promise<AsyncIterable<string>>,
  options: ShareStreamOptions,
): Promise<AsyncGenerator<string>>;
export async function shareStream<T>(
  cluster: ClusterConfig,
  key: string,
  open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
  options: ShareItemsOptions<T>,
): Promise<AsyncGenerator<T>>;
export async function shareStream<T>(
  cluster: ClusterConfig,
  key: string,
  open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
  options: ShareStreamOptions & { sizeOf?: (item: T) => number },
): Promise<AsyncGenerator<T>> {
  const sizeOf = options.sizeOf ?? ((item: T) => (item as string).length);
  const slot = options.fleet.slot(cluster);
  let streams = shared.get(slot);
  if (!streams) shared.set(slot, (streams = new Map<string, Shared>()));
  const streamsOf = streams;
  let stream = streamsOf.get(key);
  if (!stream) {
    const controller = new AbortController();
    const followers = new Set<Follower<unknown>>();
    const opened = open(controller.signal).then(
      (items) => void pump(items as AsyncIterable<unknown>, followers, controller),
    );
    stream = { followers, controller, opened };
    const made = stream;
    streamsOf.set(key, made);
    const forget = () => streamsOf.get(key) === made && streamsOf.delete(key);
    opened.catch(forget);
    controller.signal.addEventListener("abort", forget, { once: true });
  }
  const follower: Follower<T> = {
    queue: [],
    backlog: new Backlog({ bytes: options.maxQueuedBytes ?? MAX_QUEUED_BYTES }),
    sizeOf,
  };
  stream.followers.add(follower as Follower<unknown>);
  const { followers, controller } = stream;
  const leave = () => {
    if (!followers.delete(follower as Follower<unknown>)) return;
    if (!followers.size) controller.abort();
  };
  try {
    await stream.opened;
  } catch (error) {
    leave();
    throw error;
  }
  const signal = options.signal;
  // A follower that aborts leaves at once, even one that never started its iteration.
  const onAbort = () => {
    follower.end ??= {};
    follower.wake?.();
    leave();
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return (async function* () {
    try {
      for (;;) {
        while (follower.queue.length) {
          const item = follower.queue.shift()!;
          follower.backlog.remove(sizeOf(item));
          yield item;
        }
        if (follower.end) {
          if (follower.end.error) throw follower.end.error;
          return;
        }
        await new Promise<void>((resolve) => (follower.wake = resolve));
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      leave();
    }
  })();
}

/** Hand each item to every follower; a follower past its bound is dropped, the others go on. */
async function pump(
  items: AsyncIterable<unknown>,
  followers: Set<Follower<unknown>>,
  controller: AbortController,
): Promise<void> {
  let end: Follower<unknown>["end"] = {};
  try {
    for await (const item of items) {
      for (const follower of followers) {
        if (follower.end) continue;
        if (follower.backlog.add(follower.sizeOf(item))) follower.queue.push(item);
        else {
          follower.end = { error: follower.backlog.tooSlow("follow again") };
          follower.queue.length = 0;
        }
        follower.wake?.();
      }
      if (controller.signal.aborted) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) end = { error: error as Error };
  }
  controller.abort();
  for (const follower of followers) {
    follower.end ??= end;
    follower.wake?.();
  }
}
