import { findContainer, type ContainerRef } from "./containers.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { decodeOutput } from "./container-output.ts";
import type { CoreOptions } from "../engine/fleet.ts";

/** A line of live output. */
export interface AttachLine {
  stream: "stdout" | "stderr";
  text: string;
}

/**
 * The live output of a running container, read-only: stdout and stderr only, never stdin,
 * never a TTY resize, never the engine's websocket. It ends when the container stops,
 * `options.signal` aborts or the consumer stops. A stopped or paused container is
 * `CONTAINER_NOT_RUNNING` (the engine itself would wait for a stopped one to start).
 * @example
 * ```ts
 * for await (const line of await attachContainer({ cluster: "prod", name: "web" }, { fleet }))
 *   process.stdout.write(`${line.stream}: ${line.text}\n`);
 * ```
 */
export async function attachContainer(
  input: ContainerRef,
  options: CoreOptions,
): Promise<AsyncGenerator<AttachLine>> {
  const target = await findContainer(input, { ...options, running: true, unpaused: true });
  const chunks = await openEngineStream(
    target.cluster,
    (engine, signal) => engine.attach(target.id, signal),
    { ...options, statuses: target.statuses },
  );
  return lines(decodeOutput(chunks, { multiplexed: !target.tty, timestamps: false }));
}

async function* lines(
  output: AsyncIterable<{ stream: AttachLine["stream"]; text: string }>,
): AsyncGenerator<AttachLine> {
  for await (const { stream, text } of output) yield { stream, text };
}
