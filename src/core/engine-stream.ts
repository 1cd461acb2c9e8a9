import type { Readable } from "node:stream";
import type Dockerode from "dockerode";
import type { ClusterConfig } from "./config.ts";
import { callEngine, translateEngineError, type CallEngineOptions } from "./engine.ts";

let open = 0;

/** Engine streams (logs, stats, attach) open right now, for tests and for a shutdown to wait on. */
export function countEngineStreams(): number {
  return open;
}

/**
 * Open a streaming engine call (logs with follow, stats, attach). The cluster's time limit covers
 * opening it (D12), not the stream itself, which lasts until the engine ends it, `options.signal`
 * aborts (a client that left), or the consumer stops iterating; each closes the engine socket.
 * Yields the raw chunks; errors after opening are translated like any engine error.
 */
export async function* openEngineStream(
  cluster: ClusterConfig,
  run: (docker: Dockerode, signal: AbortSignal) => Promise<NodeJS.ReadableStream>,
  options: CallEngineOptions,
): AsyncGenerator<Buffer> {
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });
  let stream: Readable | undefined;
  try {
    // The signal handed to dockerode is the caller's, not the deadline: the deadline would cut the stream.
    stream = (await callEngine(cluster, (docker) => run(docker, controller.signal), { ...options, purpose: "stream" })) as Readable;
    open++;
    stream.once("close", () => open--);
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    if (!controller.signal.aborted) throw translateEngineError(error, cluster, options.statuses ? { statuses: options.statuses } : {});
  } finally {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
    stream?.destroy();
  }
}
