// Followers of one container's logs share one engine stream (issue 25): the engine's new lines
// (followed from the end of its log, with their times, both streams) go to every follower, each
// after its own history (its own tail and since, read once), joined by the engine's times so that
// a line is neither lost nor said twice where the two meet.
import type { Readable } from "node:stream";
import type { EngineBackend } from "../engine/engine-backend.ts";
import { MAX_BACKLOG_BYTES } from "../backlog.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { shareStream } from "../hub/shared-stream.ts";
import { decodeOutput, type OutputLine } from "./container-output.ts";
import type { ContainerTarget } from "./containers.ts";
import { compareTimes, timeKey, type TimeKey } from "./reorder.ts";

/** What a follower asks (of logs.ts's `LogsQuery`). */
export interface FollowerQuery {
  tail: number | "all";
  /** Unix seconds. */
  since?: number;
  stream: "stdout" | "stderr" | "both";
  timestamps: boolean;
}

/**
 * Opens `GET /containers/{id}/logs`, with times: `live`, the shared stream (nothing old, both
 * streams, followed); else the follower's history (its query, not followed).
 */
export type DialLogs = (
  engine: EngineBackend,
  live: boolean,
  signal: AbortSignal,
) => Promise<Readable>;

/** What a line holds in a follower's queue, about (its text and its JSON around it). */
const lineBytes = (line: OutputLine) => line.text.length + 64;

/**
 * The container's logs after `query`'s history, as they are written, from the one engine stream
 * every follower of the container shares (see {@link shareStream}); a follower that leaves 16 MiB
 * unread is dropped with `CLIENT_TOO_SLOW`. `query.until` is not for it: an `until` follow ends,
 * and asks the engine on its own.
 */
export async function followSharedLogs(
  target: ContainerTarget,
  query: FollowerQuery,
  options: CoreOptions,
  dial: DialLogs,
): Promise<AsyncGenerator<OutputLine>> {
  const { cluster, statuses } = target;
  const engineOptions = { ...options, statuses };
  // Its own signal: a follower whose history cannot be read leaves the shared stream at once.
  const controller = new AbortController();
  const leave = () => controller.abort();
  options.signal?.addEventListener("abort", leave, { once: true });
  if (options.signal?.aborted) leave();
  const live = await shareStream(
    cluster,
    `logs ${target.id}`,
    async (signal) =>
      decodeOutput(
        await openEngineStream(cluster, (engine, s) => dial(engine, true, s), {
          ...engineOptions,
          signal,
        }),
        { multiplexed: !target.tty, timestamps: true },
      ),
    { ...options, signal: controller.signal, maxQueuedBytes: MAX_BACKLOG_BYTES, sizeOf: lineBytes },
  );
  let history: Iterable<OutputLine> | AsyncIterable<OutputLine> = [];
  try {
    // Read after joining the live stream: what is written meanwhile is in both, and said once.
    if (query.tail !== 0)
      history = decodeOutput(
        await openEngineStream(cluster, (engine, s) => dial(engine, false, s), engineOptions),
        { multiplexed: !target.tty, timestamps: true },
      );
  } catch (error) {
    leave();
    throw error;
  }
  return joinLogs(history, live, query, leave);
}

/**
 * `history` then the lines of `live` it does not hold, shaped for `query` (its stream, its
 * `since`, times only when asked for); `done` when the follower stops.
 */
export async function* joinLogs(
  history: Iterable<OutputLine> | AsyncIterable<OutputLine>,
  live: Iterable<OutputLine> | AsyncIterable<OutputLine>,
  query: Omit<FollowerQuery, "tail">,
  done: () => void = () => {},
): AsyncGenerator<OutputLine> {
  const shaped = (line: OutputLine): OutputLine =>
    query.timestamps ? line : { ...line, time: null };
  const seam = new Seam();
  try {
    for await (const line of history) {
      seam.saw(line);
      yield shaped(line);
    }
    const since = query.since === undefined ? undefined : query.since * 1000;
    for await (const line of live) {
      if (query.stream !== "both" && line.stream !== query.stream) continue;
      if (since !== undefined && line.time !== null && timeKey(line.time)[0] < since) continue;
      if (!seam.holds(line)) yield shaped(line);
    }
  } finally {
    done();
  }
}

/**
 * Where a follower's history ends, per stream (the engine stamps each stream's lines in order,
 * the two streams' apart): a live line before it was in the history, one after it was not, and
 * one of the same time was if the history held its text at that time.
 */
export class Seam {
  private readonly ends = new Map<OutputLine["stream"], { key: TimeKey; texts: string[] }>();
  private last?: TimeKey;

  /** A line of the history, in order. */
  saw(line: OutputLine): void {
    if (line.time === null) return;
    const key = timeKey(line.time);
    const end = this.ends.get(line.stream);
    if (end && compareTimes(end.key, key) === 0) end.texts.push(line.text);
    else this.ends.set(line.stream, { key, texts: [line.text] });
    if (!this.last || compareTimes(key, this.last) > 0) this.last = key;
  }

  /** Whether the history held this live line (each history line answers for one live line). */
  holds(line: OutputLine): boolean {
    if (line.time === null) return false;
    const end = this.ends.get(line.stream) ?? (this.last && { key: this.last, texts: [] });
    if (!end) return false;
    const order = compareTimes(timeKey(line.time), end.key);
    if (order !== 0) return order < 0;
    const at = end.texts.indexOf(line.text);
    if (at >= 0) end.texts.splice(at, 1);
    return at >= 0;
  }
}
