import type { Readable } from "node:stream";
import type { ClusterConfig } from "../config/cluster-config.ts";
import { DocklensError } from "../errors.ts";
import type { EngineBackend } from "./engine-backend.ts";
import { MAX_ENGINE_STREAMS } from "./engine-client.ts";
import { callEngine, translateEngineError, type CallEngineOptions } from "./engine.ts";
import type { EngineSlot } from "./fleet.ts";

let open = 0;
/** Streams open or opening per cluster (its slot), each holding a socket of its stream pool. */
const held = new WeakMap<EngineSlot, number>();

/** Engine streams (logs, stats, attach) open right now, for tests and for a shutdown to wait on. */
export function countEngineStreams(): number {
  return open;
}

/**
 * Open a streaming engine call (logs with follow, stats, attach) and return its chunks. It
 * resolves once the engine has answered, so that an unknown container, a dead engine or the time
 * limit (which covers opening only: docs/http-interface.md, "Time limits") fail here, before
 * anything is streamed. The stream then lasts until the engine ends it, `options.signal` aborts
 * (a client that left) or the consumer stops iterating; each closes the engine socket. Errors
 * after opening are translated too. A cluster whose pool of stream sockets is all taken fails
 * at once with `STREAM_POOL_FULL`: a socket it waited for would come only when another stream
 * ends, and the wait would end as an `ENGINE_TIMEOUT` that blames a healthy engine.
 */
export async function openEngineStream(
  cluster: ClusterConfig,
  run: (engine: EngineBackend, signal: AbortSignal) => Promise<NodeJS.ReadableStream>,
  options: CallEngineOptions,
): Promise<AsyncGenerator<Buffer>> {
  const slot = options.fleet.slot(cluster);
  const holding = held.get(slot) ?? 0;
  if (holding >= MAX_ENGINE_STREAMS)
    throw new DocklensError(
      "STREAM_POOL_FULL",
      `docklens holds ${MAX_ENGINE_STREAMS} streams of cluster ${JSON.stringify(cluster.name)} open, its most: ` +
        "try again once one ends",
    );
  held.set(slot, holding + 1);
  let released = false;
  const release = () => {
    if (!released) held.set(slot, held.get(slot)! - 1);
    released = true;
  };
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });
  const close = () => {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
  };
  let stream: Readable;
  try {
    // The signal handed to the engine is the caller's, not the deadline: the deadline would cut the stream.
    stream = (await callEngine(cluster, (engine) => run(engine, controller.signal), {
      ...options,
      purpose: "stream",
    })) as Readable;
  } catch (error) {
    release();
    close();
    throw error;
  }
  open++;
  stream.once("close", () => {
    open--;
    release();
  });
  controller.signal.addEventListener("abort", () => stream.destroy(), { once: true });
  return (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      if (!controller.signal.aborted)
        throw translateEngineError(
          error,
          cluster,
          options.statuses ? { statuses: options.statuses } : {},
        );
    } finally {
      close();
    }
  })();
}
