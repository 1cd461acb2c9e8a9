import { setMaxListeners } from "node:events";
import { DocklensError } from "./errors.ts";

/** Rejects when `signal` aborts; for racing a promise that cannot be cancelled itself. */
function whenAborted(signal: AbortSignal | undefined): {
  promise: Promise<never>;
  dispose(): void;
} {
  if (!signal) return { promise: new Promise<never>(() => {}), dispose() {} };
  let onAbort!: () => void;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        signal.reason instanceof Error
          ? signal.reason
          : new DocklensError("ENGINE_ERROR", "cancelled"),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/** `work`, or a rejection as soon as `signal` aborts: for work that cannot be cancelled itself. */
export async function settleOnAbort<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const aborted = whenAborted(signal);
  try {
    return await Promise.race([work, aborted.promise]);
  } finally {
    aborted.dispose();
  }
}

/**
 * Resolve after `ms`, or at once when `signal` aborts; never rejects. On the global timers, which
 * fake timers reach (node:timers/promises's they do not): the hub's backoff and the alert
 * samplers' rounds are tested so.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * At most `max` tasks at once; the others wait in order. A waiter whose signal aborts leaves the
 * queue without running, and a running task whose signal aborts gives its place back at once.
 * One per engine, so that a burst never opens more than `max` calls.
 */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.active >= this.max) {
      let ready!: () => void;
      const turn = new Promise<void>((resolve) => (ready = resolve));
      this.queue.push(ready);
      const aborted = whenAborted(signal);
      try {
        await Promise.race([turn, aborted.promise]);
      } catch (error) {
        const index = this.queue.indexOf(ready);
        if (index !== -1) this.queue.splice(index, 1);
        else this.release(); // Its turn came as it left: pass the turn on.
        throw error;
      } finally {
        aborted.dispose();
      }
    } else {
      this.active++;
    }
    // A task that ignores its signal still gives its place back when the signal aborts.
    try {
      return await settleOnAbort(task(), signal);
    } finally {
      this.release();
    }
  }

  /** Calls running, and calls waiting for a turn. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.queue.length };
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }
}

/** Results kept at most, with `ttlMs`; the oldest go first. */
const MAX_CACHED = 1000;

/**
 * Identical reads in flight share one engine call: the first caller starts it, later ones join
 * it, and each may leave (its signal aborts) without disturbing the others; the call itself is
 * cancelled when the last one leaves. Nothing read before a request arrived is served to it
 * unless `ttlMs` allows: then a result is reused for that long after it came. `K` narrows the
 * keys it takes (the engine's reads take only keys built to say what they read).
 */
export class Coalescer<K extends string = string> {
  private readonly inflight = new Map<
    K,
    { promise: Promise<unknown>; controller: AbortController; waiters: number }
  >();
  private readonly cache = new Map<K, { value: unknown; expires: number }>();

  constructor(private readonly ttlMs = 0) {}

  async run<T>(
    key: K,
    start: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const cached = this.cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.value as T;
    if (cached) this.cache.delete(key);
    let shared = this.inflight.get(key);
    if (!shared) {
      const controller = new AbortController();
      // A shared read over many clusters hands this signal to an engine call of each.
      setMaxListeners(0, controller.signal);
      const promise = start(controller.signal).then((value) => {
        if (this.ttlMs > 0) {
          if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
          this.cache.set(key, { value, expires: Date.now() + this.ttlMs });
        }
        return value;
      });
      const entry = { promise, controller, waiters: 0 };
      shared = entry;
      this.inflight.set(key, entry);
      promise.then(
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
      );
    }
    const entry = shared;
    entry.waiters++;
    const aborted = whenAborted(signal);
    try {
      return (await Promise.race([entry.promise, aborted.promise])) as T;
    } finally {
      aborted.dispose();
      entry.waiters--;
      if (entry.waiters === 0 && signal?.aborted) {
        // Nobody waits any more: stop the engine call, and let the next caller start a fresh one.
        if (this.inflight.get(key) === entry) this.inflight.delete(key);
        entry.controller.abort(signal.reason);
      }
    }
  }

  /** Reads in flight and results kept, for tests and memory checks. */
  get size(): { inflight: number; cached: number } {
    return { inflight: this.inflight.size, cached: this.cache.size };
  }
}
