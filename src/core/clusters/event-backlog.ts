// How far back an engine's events reach. Docker keeps only its last 256 events (`eventsLimit` in
// moby's daemon/events package) and answers `since` from them alone: asked for 15 minutes, it may
// send 85 seconds without a word. Asked for everything from `since` to now, unfiltered, a full
// backlog whose first event is later than `since` is one that no longer reaches it; events that
// came while the engine answered may follow the 256 (a loaded engine). Podman reads its own event
// log, which keeps them all: its answer reaches back.
import type { Readable } from "node:stream";
import type { ClusterConfig } from "../config/cluster-config.ts";
import type { CallEngineOptions } from "../engine/engine.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { readEngineVersion } from "../engine/engine-version.ts";
import { parseEngineJson } from "../json.ts";
import { ndjsonSplitter } from "../ndjson.ts";
import { engineName } from "./clusters.ts";

/** How many events Docker's engine keeps for `since` (moby: daemon/events, `eventsLimit`). */
const ENGINE_EVENTS_KEPT = 256;

/**
 * The time (Unix seconds) of the oldest event `cluster`'s engine still keeps, when its backlog
 * does not reach back to `since` (Unix seconds); undefined when it does, or when it cannot be
 * told (the engine did not answer: the stream itself says that).
 */
export async function readEventsReach(
  cluster: ClusterConfig,
  since: number,
  options: CallEngineOptions,
): Promise<number | undefined> {
  try {
    if (engineName(await readEngineVersion(cluster, options)).name === "Podman Engine")
      return undefined;
    // No filters: the engine filters its backlog, and a filtered count says nothing of the cap.
    const query = { since: since.toFixed(9), until: (Date.now() / 1000).toFixed(9) };
    const chunks = await openEngineStream(
      cluster,
      (engine, signal) =>
        engine.get("/events", signal, { query, stream: true }) as Promise<Readable>,
      options,
    );
    const lines = ndjsonSplitter();
    let count = 0;
    let oldest: number | undefined;
    for await (const chunk of chunks)
      for (const line of lines(chunk)) {
        count++;
        oldest ??= eventSeconds(parseEngineJson(line) as Record<string, unknown>);
      }
    return count >= ENGINE_EVENTS_KEPT && oldest !== undefined && oldest > since
      ? oldest
      : undefined;
  } catch {
    return undefined;
  }
}

/** An event's time in Unix seconds, to the nanosecond its engine gives. */
function eventSeconds(event: Record<string, unknown>): number | undefined {
  const { timeNano, time } = event;
  if (typeof timeNano === "bigint") return Number(timeNano / 1000n) / 1e6;
  if (typeof timeNano === "number") return Math.round(timeNano / 1000) / 1e6;
  return typeof time === "number" ? time : undefined;
}
