// One cluster's recorder (D26): its events from the cluster's one event subscription (D21), shared
// with every other user of it; each container's inspect body when something happens to it; a stats
// sample of each running container every interval; the lines of the selected containers through
// the shared log streams. On start it asks the engine for what came since the last it kept, and
// inspects every container there once.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { streamEvents } from "../clusters/events.ts";
import { inspectContainer } from "../containers/containers.ts";
import { listContainers } from "../containers/list-containers.ts";
import { followContainerLogs } from "../containers/logs.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import type { ContainerFilter } from "../hub/container-filter.ts";
import { followMirror } from "../hub/container-mirror.ts";
import { subscribeEvents, type EngineEvent } from "../hub/event-hub.ts";
import { timeKey } from "../containers/reorder.ts";
import type { LatestSamples } from "./latest-stats.ts";
import { sampleStats } from "./record-stats.ts";
import type { ContainerRecord, HistoryStore, StoredContainerRef } from "./store.ts";

/** Options of {@link recordCluster}. */
export interface RecorderOptions extends CoreOptions {
  store: HistoryStore;
  statsIntervalMs: number;
  /** Where the last stats sample of each running container is kept, for `/metrics`. */
  latest?: LatestSamples;
  /** The containers whose lines are kept (none: no lines), at most `max` of them per engine. */
  logs: { select: ContainerFilter; max: number } | false;
  /** Told of what could not be read; serve logs it. */
  log?: (message: string) => void;
}

/** What a container's events make the recorder inspect it for (`health_status: healthy` too). */
const INSPECTED = /^(create|start|die|oom|health_status.*)$/;

/** Containers inspected at once when recording starts. */
const EXISTING_AT_ONCE = 4;

/** Lines a container the store never saw is asked for, at most, when it is first followed. */
const FIRST_TAIL = 10_000;

/**
 * Record `cluster` into `options.store` until the returned function is called. Nothing it fails to
 * read stops it: a failure is logged, and the next event or round tries again.
 * @example
 * ```ts
 * const stop = await recordCluster(cluster, { fleet, store, statsIntervalMs: 15_000, logs: false });
 * ```
 */
export async function recordCluster(
  cluster: ClusterConfig,
  options: RecorderOptions,
): Promise<() => void> {
  const { store } = options;
  const controller = new AbortController();
  const signal = controller.signal;
  const told = options.log ?? (() => {});
  // An engine away, or a container gone before it was read, is no news: the engine's state says
  // so where it is shown, and history has a gap. What else fails is told.
  const log = (message: string, error?: unknown) => {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === "string" && /^(ENGINE_|CONTAINER_NOT_FOUND|CLUSTER_NOT_FOUND)/.test(code))
      return;
    told(message);
  };
  const ref = { cluster: cluster.name };
  const resume = await store.resumePoint(cluster.id);
  /** The last record of each container seen, to keep at its `destroy` (its inspect is gone then). */
  const last = new Map<string, ContainerRecord>();
  /** The last line's time kept of each container, in µs: a follow again starts there. */
  const lineTimes = new Map(resume.logTimesUs);
  const following = new Set<string>();

  const inspect = async (id: string, time: number) => {
    try {
      // The config's `showSecrets` is for readers who may see them: the store keeps none.
      const inspected = await inspectContainer(
        { ...ref, name: id },
        { ...options, signal, showSecrets: false },
      );
      const body = inspected as unknown as Record<string, unknown>;
      const state = (body.State ?? {}) as { Status?: string; ExitCode?: number };
      const record: ContainerRecord = {
        cluster: cluster.id,
        id,
        name: (typeof body.Name === "string" ? body.Name : "").replace(/^\//, ""),
        time,
        image: String((body.Config as { Image?: string } | undefined)?.Image ?? ""),
        state: state.Status ?? "",
        exitCode: state.Status === "running" ? null : (state.ExitCode ?? null),
        removed: null,
        inspect: body,
      };
      last.set(id, record);
      store.putContainer(record);
    } catch (error) {
      if (!signal.aborted)
        log(
          `${cluster.name}: cannot inspect ${id.slice(0, 12)}: ${(error as Error).message}`,
          error,
        );
    }
  };

  const onEvent = (event: EngineEvent) => {
    const { timeNano: nanos, time: seconds } = event;
    const timeNano =
      typeof nanos === "bigint" || typeof nanos === "number"
        ? BigInt(nanos).toString()
        : `${typeof seconds === "number" ? seconds : 0}000000000`;
    const time = Math.floor(Number(timeNano) / 1e6);
    store.appendEvents([{ cluster: cluster.id, time, timeNano, event }]);
    if (event.Type !== "container") return;
    const actor = (event.Actor ?? {}) as { ID?: string; Attributes?: Record<string, string> };
    const action = typeof event.Action === "string" ? event.Action : "";
    const id = actor.ID ?? "";
    if (!id) return;
    if (action === "destroy") {
      const name = actor.Attributes?.name ?? "";
      const known = last.get(id);
      last.delete(id);
      store.putContainer({
        ...(known ?? { cluster: cluster.id, id, name, image: actor.Attributes?.image ?? "" }),
        ...(known
          ? {}
          : { state: "removed", exitCode: null, inspect: { Id: id, Name: `/${name}` } }),
        time,
        removed: time,
      } as ContainerRecord);
    } else if (INSPECTED.test(action))
      void inspect(id, time).then(() => action === "start" && void followLogs());
  };

  /** Follow the lines of each selected running container not followed yet. */
  const followLogs = async () => {
    if (!options.logs || signal.aborted) return;
    const { select, max } = options.logs;
    const { running } = await listContainers(String(cluster.id), options).catch(() => ({
      running: [],
    }));
    const chosen = running
      .filter((item) => select(item) !== false)
      .sort((a, b) => Number(b.Created) - Number(a.Created))
      .slice(0, max);
    for (const item of chosen)
      if (!following.has(item.Id) && following.size < max)
        void followLines({
          cluster: cluster.id,
          id: item.Id,
          name: (item.Names?.[0] ?? "").replace(/^\//, ""),
        });
  };

  const followLines = async (container: StoredContainerRef) => {
    following.add(container.id);
    const from = lineTimes.get(container.id);
    // Since the last line kept (that microsecond again: its lines get the same keys, kept once).
    const query =
      from === undefined
        ? { tail: FIRST_TAIL }
        : { tail: "all" as const, since: Math.floor(from / 1000) / 1000 };
    try {
      const lines = await followContainerLogs(
        { ...ref, name: container.id },
        { ...options, signal, query: { ...query, timestamps: true, stream: "both" } },
      );
      const seqs = { stdout: { at: -1, seq: 0 }, stderr: { at: -1, seq: 0 } };
      for await (const line of lines) {
        const timeUs = lineTimeUs(line.time);
        if (timeUs === undefined) continue;
        const seen = seqs[line.stream];
        seen.seq = seen.at === timeUs ? seen.seq + 1 : 0;
        seen.at = timeUs;
        lineTimes.set(container.id, timeUs);
        store.appendLogs([
          { ...container, timeUs, stream: line.stream, seq: seen.seq, text: line.text },
        ]);
      }
    } catch (error) {
      if (!signal.aborted)
        log(
          `${cluster.name}: cannot follow the logs of ${container.name}: ${(error as Error).message}`,
          error,
        );
    } finally {
      following.delete(container.id);
    }
  };

  // What the engine still holds of the events since the last one kept, then the shared stream.
  const backlog = async (until: number) => {
    if (!resume.eventTimeNano) return;
    const since = Number(resume.eventTimeNano) / 1e9;
    try {
      const past = await streamEvents({
        ...options,
        clusters: [String(cluster.id)],
        since,
        until,
        signal,
      });
      for await (const item of past) if ("Type" in item) onEvent(item);
    } catch (error) {
      log(
        `${cluster.name}: cannot read the events since the last kept: ${(error as Error).message}`,
        error,
      );
    }
  };
  // Every container there when recording starts, once: one that is removed before its next event
  // can still be looked up. Again when the engine comes back, for those not read yet (its list
  // failed). A few inspects at a time, as the stats samples are read.
  const recordExisting = async () => {
    const { containers } = await listContainers(String(cluster.id), options).catch(() => ({
      containers: [],
    }));
    const waiting = containers.map((item) => item.Id).filter((id) => !last.has(id));
    const worker = async () => {
      for (let id = waiting.shift(); id !== undefined && !signal.aborted; id = waiting.shift())
        await inspect(id, Date.now());
    };
    await Promise.all(Array.from({ length: EXISTING_AT_ONCE }, worker));
  };
  let started = false;
  const mirror = followMirror(cluster, options, () => {});
  const events = subscribeEvents(cluster, options, (signalled) => {
    if (signalled.kind === "event") onEvent(signalled.event);
    else if (signalled.kind === "up" && !started) {
      started = true;
      void backlog(Date.now() / 1000).then(() => Promise.all([followLogs(), recordExisting()]));
    } else if (signalled.kind === "up") void Promise.all([followLogs(), recordExisting()]);
  });
  sampleStats(cluster, {
    ...options,
    signal,
    every: options.statsIntervalMs,
    each: followLogs,
    log,
  });
  return () => {
    controller.abort();
    events.close();
    mirror.close();
  };
}

/** An engine's RFC 3339 time (nanoseconds) in µs since the epoch. */
function lineTimeUs(time: string | null): number | undefined {
  const [ms, nanos] = timeKey(time);
  return Number.isFinite(ms) ? ms * 1000 + Math.floor(nanos / 1000) : undefined;
}
