// Identical engine streams shared: the first follower opens one, every identical one after it
// reads the same items, each from its own queue bounded in bytes, so a slow follower is dropped
// (told why) and never slows the others or the engine; the last to leave closes it.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { Backlog } from "../backlog.ts";
import type { CoreOptions, EngineSlot } from "../engine/fleet.ts";

/** What a follower of a shared stream holds unread at most, by default: past it, it is dropped. */
const MAX_QUEUED_BYTES = 4 << 20;

interface Follower {
  queue: string[];
  /** What it left unread, bounded in bytes. */
  backlog: Backlog;
  wake?: () => void;
  /** Set when the stream ended (undefined: it ended well) or the follower was dropped. */
  end?: { error?: Error };
}

interface Shared {
  followers: Set<Follower>;
  controller: AbortController;
  opened: Promise<void>;
}

const shared = new WeakMap<EngineSlot, Map<string, Shared>>();

/** Options of {@link shareStream}. */
export interface ShareStreamOptions extends CoreOptions {
  /** Bytes a follower may leave unread before it is dropped with `CLIENT_TOO_SLOW`. */
  maxQueuedBytes?: number;
}

/**
 * The lines of the engine stream `key` names on `cluster`, opened by `open` for the first
 * follower and shared by every one that asks for the same `key` while it is open. Opening fails
 * for the follower(s) waiting on it; a follower leaves by aborting its signal or stopping its
 * iteration.
 */
export async function shareStream(
  cluster: ClusterConfig,
  key: string,
  open: (signal: AbortSignal) => Promise<AsyncIterable<string>>,
  options: ShareStreamOptions,
): Promise<AsyncGenerator<string>> {
  const slot = options.fleet.slot(cluster);
  let streams = shared.get(slot);
  if (!streams) shared.set(slot, (streams = new Map<string, Shared>()));
  const streamsOf = streams;
  let stream = streamsOf.get(key);
  if (!stream) {
    const controller = new AbortController();
    const followers = new Set<Follower>();
    const opened = open(controller.signal).then((lines) => void pump(lines, followers, controller));
    stream = { followers, controller, opened };
    const made = stream;
    streamsOf.set(key, made);
    const forget = () => streamsOf.get(key) === made && streamsOf.delete(key);
    opened.catch(forget);
    controller.signal.addEventListener("abort", forget, { once: true });
  }
  const follower: Follower = {
    queue: [],
    backlog: new Backlog({ bytes: options.maxQueuedBytes ?? MAX_QUEUED_BYTES }),
  };
  stream.followers.add(follower);
  const { followers, controller } = stream;
  const leave = () => {
    followers.delete(follower);
    if (!followers.size) controller.abort();
  };
  try {
    await stream.opened;
  } catch (error) {
    leave();
    throw error;
  }
  const signal = options.signal;
  const onAbort = () => {
    follower.end ??= {};
    follower.wake?.();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  return (async function* () {
    try {
      for (;;) {
        while (follower.queue.length) {
          const line = follower.queue.shift()!;
          follower.backlog.remove(line.length);
          yield line;
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

/** Hand each line to every follower; a follower past its bound is dropped, the others go on. */
async function pump(
  lines: AsyncIterable<string>,
  followers: Set<Follower>,
  controller: AbortController,
): Promise<void> {
  let end: Follower["end"] = {};
  try {
    for await (const line of lines) {
      for (const follower of followers) {
        if (follower.end) continue;
        if (follower.backlog.add(line.length)) follower.queue.push(line);
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
