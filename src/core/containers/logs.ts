import type { Readable } from "node:stream";
import type { EngineBackend } from "../engine/engine-backend.ts";
import { findContainer, type ContainerTarget, type ContainerRef } from "./containers.ts";
import { callEngine } from "../engine/engine.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { decodeOutput, type OutputLine } from "./container-output.ts";
import { DocklensError } from "../errors.ts";
import { fleetHubOptions, type CoreOptions } from "../engine/fleet.ts";
import { followSharedLogs } from "./shared-logs.ts";

/**
 * What to read of a container's logs
 * (docs/http-interface.md, "GET /detail/:cluster/container/:containerName/logs").
 */
export interface LogsQuery {
  /** Last lines to show, or `all`. */
  tail: number | "all";
  /** Unix seconds. */
  since?: number;
  until?: number;
  stream: "stdout" | "stderr" | "both";
  timestamps: boolean;
  follow: boolean;
}

/** Options of {@link readContainerLogs} and {@link followContainerLogs}. */
export interface LogsOptions extends CoreOptions {
  query?: Partial<LogsQuery>;
  /**
   * The most one unfollowed read returns, in bytes of engine output and of its JSON body (each
   * line costs its text and about 40 bytes of JSON around it); more is `INVALID_QUERY`. Default 16 MiB.
   */
  maxBytes?: number;
}

/**
 * An unfollowed read is one JSON body, held whole in memory: without a bound, `tail=all` on a
 * chatty container could take the server down for every cluster. Followed logs stream instead.
 */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;
/** `{"stream":"stdout","time":null,"text":""},`: what a line's JSON costs beside its text. */
const LINE_JSON_BYTES = 42;

/** Body of `.../logs` without `follow`. */
export interface ReadLogsResult {
  lines: OutputLine[];
}

/** What a read of logs takes when a field is not given (docs/http-interface.md). */
export const LOGS_DEFAULTS: LogsQuery = {
  tail: 100,
  stream: "both",
  timestamps: false,
  follow: false,
};
/** What the engine stream serve's followers of a container share asks: new lines, with times. */
const LIVE: LogsQuery = { tail: 0, stream: "both", timestamps: true, follow: true };
/** A number of lines, or `all`. */
export const TAIL = /^(\d{1,9}|all)$/;

/**
 * The lines a container logged: `tail` (default 100), `since`, `until`, `stream`, `timestamps`.
 * More than `maxBytes` of output is `INVALID_QUERY`, whose message says how to ask for less.
 * @example
 * ```ts
 * const { lines } = await readContainerLogs(
 *   { cluster: "prod", name: "web" },
 *   { fleet, query: { tail: 20 } },
 * );
 * ```
 */
export async function readContainerLogs(
  input: ContainerRef,
  options: LogsOptions,
): Promise<ReadLogsResult> {
  const target = await findContainer(input, options);
  const query = { ...LOGS_DEFAULTS, ...options.query, follow: false };
  const maxBytes = options.maxBytes ?? MAX_LOG_BYTES;
  const lines = await callEngine(
    target.cluster,
    async (engine, signal) => {
      const stream = await dialLogs(engine, target, query, signal);
      const collected: OutputLine[] = [];
      // Both bounds: output without newlines grows no lines, and a flood of empty lines grows no
      // bytes. Throwing out of the loops closes the engine stream.
      let body = 0;
      for await (const line of decodeOutput(bounded(stream, maxBytes, input.name), {
        multiplexed: !target.tty,
        timestamps: query.timestamps,
      })) {
        body += line.text.length + (line.time?.length ?? 0) + LINE_JSON_BYTES;
        if (body > maxBytes) throw tooMuchOutput(input.name, maxBytes);
        collected.push(line);
      }
      return collected;
    },
    { ...options, statuses: target.statuses },
  );
  return { lines };
}

/**
 * New lines as the container writes them, after the backlog `tail` selects, until the container
 * stops, `options.signal` aborts or the consumer stops; the engine stream is closed then. On a
 * live fleet (serve), followers of one container share one engine stream (shared-logs.ts).
 * Unknown containers and unreachable engines fail here, before anything is streamed. Iterate
 * the lines to the end or abort `options.signal`: either closes the engine stream.
 * @example
 * ```ts
 * const query = { tail: 10 };
 * for await (const line of await followContainerLogs({ cluster: "prod", name: "web" }, { fleet, query }))
 *   console.log(line.text);
 * ```
 */
export async function followContainerLogs(
  input: ContainerRef,
  options: LogsOptions,
): Promise<AsyncGenerator<OutputLine>> {
  const target = await findContainer(input, options);
  const query = { ...LOGS_DEFAULTS, ...options.query, follow: true };
  // Serve's followers of a container share one engine stream; an `until` follow ends on its own.
  if (fleetHubOptions(options.fleet).live && query.until === undefined)
    return followSharedLogs(target, query, options, (engine, live, signal) =>
      dialLogs(engine, target, live ? LIVE : { ...query, timestamps: true, follow: false }, signal),
    );
  const chunks = await openEngineStream(
    target.cluster,
    (engine, signal) => dialLogs(engine, target, query, signal),
    { ...options, statuses: target.statuses },
  );
  return decodeOutput(chunks, { multiplexed: !target.tty, timestamps: query.timestamps });
}

/** `GET /containers/{id}/logs` as a stream, followed or not (see {@link EngineBackend.get}). */
async function dialLogs(
  engine: EngineBackend,
  target: ContainerTarget,
  query: LogsQuery,
  signal: AbortSignal,
): Promise<Readable> {
  const params = {
    stdout: query.stream !== "stderr",
    stderr: query.stream !== "stdout",
    tail: String(query.tail),
    timestamps: query.timestamps,
    follow: query.follow,
    ...(query.since !== undefined ? { since: query.since.toFixed(9) } : {}),
    ...(query.until !== undefined ? { until: query.until.toFixed(9) } : {}),
  };
  return (await engine.get(`/containers/${target.id}/logs`, signal, {
    query: params,
    stream: true,
  })) as Readable;
}

/** The chunks of `stream` until they add up to more than `maxBytes`; then this throws, which closes the stream. */
async function* bounded(
  stream: Readable,
  maxBytes: number,
  container: string,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw tooMuchOutput(container, maxBytes);
    yield chunk as Buffer;
  }
}

function tooMuchOutput(container: string, maxBytes: number): DocklensError {
  const limit = maxBytes >= 1 << 20 ? `${maxBytes / (1 << 20)} MiB` : `${maxBytes} bytes`;
  return new DocklensError(
    "INVALID_QUERY",
    `the logs of container ${JSON.stringify(container)} asked for are over ${limit}: ` +
      "ask for fewer (tail, since, until) or stream them (follow)",
  );
}
