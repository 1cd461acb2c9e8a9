import type { Readable } from "node:stream";
import { findContainer, type ContainerRef } from "./containers.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { shareStream, type ShareStreamOptions } from "../hub/shared-stream.ts";
import { DocklensError } from "../errors.ts";
import { parseEngineJson } from "../json.ts";
import { ndjsonSplitter } from "../ndjson.ts";
import type { CoreOptions } from "../engine/fleet.ts";

/**
 * The figures `docker stats` shows, computed the way it computes them
 * (docs/http-interface.md, "GET /detail/:cluster/container/:containerName/stats").
 */
export interface StatsSummary {
  cpuPercent: number;
  /** Bytes in use, less the inactive page cache. */
  memoryUsage: number;
  memoryLimit: number;
  memoryPercent: number;
  netRx: number;
  netTx: number;
  blockRead: number;
  blockWrite: number;
  pids: number;
}

/** One sample: the summary and the engine's stats body it was computed from. */
export interface StatsSample {
  summary: StatsSummary;
  raw: EngineStats;
}

/** A number as the engine sent it: a BigInt when beyond 2^53 (see json.ts). */
type EngineNumber = number | bigint;

/** The parts of the engine's stats body the summary reads; the rest passes through in `raw`. */
export interface EngineStats {
  cpu_stats?: {
    cpu_usage?: { total_usage?: EngineNumber; percpu_usage?: EngineNumber[] };
    system_cpu_usage?: EngineNumber;
    online_cpus?: EngineNumber;
  };
  precpu_stats?: { cpu_usage?: { total_usage?: EngineNumber }; system_cpu_usage?: EngineNumber };
  memory_stats?: {
    usage?: EngineNumber;
    limit?: EngineNumber;
    stats?: Record<string, EngineNumber>;
  };
  networks?: Record<string, { rx_bytes?: EngineNumber; tx_bytes?: EngineNumber }>;
  blkio_stats?: { io_service_bytes_recursive?: Array<{ op: string; value: EngineNumber }> | null };
  pids_stats?: { current?: EngineNumber };
  [key: string]: unknown;
}

/**
 * The `docker stats` figures of one engine sample: CPU % from the deltas against the previous
 * sample times the online CPUs; memory less `total_inactive_file` (cgroup v1) or `inactive_file`
 * (cgroup v2); network and block I/O summed over interfaces and devices. The figures are
 * numbers even where `raw` holds a BigInt: they are computed, not passed through.
 * @example
 * ```ts
 * const { cpuPercent, memoryPercent } = summarizeStats(raw); // raw: the engine's stats body
 * ```
 */
export function summarizeStats(raw: EngineStats): StatsSummary {
  const n = (value: EngineNumber | undefined) => Number(value ?? 0);
  const cpu = raw.cpu_stats ?? {};
  const cpuDelta = n(cpu.cpu_usage?.total_usage) - n(raw.precpu_stats?.cpu_usage?.total_usage);
  const systemDelta = n(cpu.system_cpu_usage) - n(raw.precpu_stats?.system_cpu_usage);
  const cpus = n(cpu.online_cpus) || cpu.cpu_usage?.percpu_usage?.length || 0;
  const memory = raw.memory_stats ?? {};
  const usage = n(memory.usage);
  const inactive = memory.stats?.total_inactive_file ?? memory.stats?.inactive_file;
  const cache = inactive === undefined ? undefined : n(inactive);
  const memoryUsage = cache !== undefined && cache < usage ? usage - cache : usage;
  const memoryLimit = n(memory.limit);
  const io = (op: string) =>
    (raw.blkio_stats?.io_service_bytes_recursive ?? [])
      .filter((entry) => entry.op.toLowerCase() === op)
      .reduce((sum, entry) => sum + n(entry.value), 0);
  const net = (key: "rx_bytes" | "tx_bytes") =>
    Object.values(raw.networks ?? {}).reduce((sum, iface) => sum + n(iface[key]), 0);
  return {
    cpuPercent: cpuDelta > 0 && systemDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0,
    memoryUsage,
    memoryLimit,
    memoryPercent: memoryLimit > 0 ? (memoryUsage / memoryLimit) * 100 : 0,
    netRx: net("rx_bytes"),
    netTx: net("tx_bytes"),
    blockRead: io("read"),
    blockWrite: io("write"),
    pids: n(raw.pids_stats?.current),
  };
}

/**
 * One stats sample of a container; the engine takes about a second to measure CPU. A
 * container that is not running has a sample of zeros, as Docker gives it (Podman answers nothing).
 * @example
 * ```ts
 * const { summary } = await readContainerStats({ cluster: "prod", name: "web" }, { fleet });
 * console.log(summary.cpuPercent, summary.memoryUsage);
 * ```
 */
export async function readContainerStats(
  input: ContainerRef,
  options: CoreOptions,
): Promise<StatsSample> {
  const target = await findContainer(input, options);
  const body = await callEngine(
    target.cluster,
    (engine, signal) =>
      engine.get(`/containers/${target.id}/stats`, signal, { query: { stream: false } }),
    {
      ...options,
      statuses: target.statuses,
    },
  );
  const raw = withIdentity(
    body === "" && !target.running
      ? idleStats()
      : expectBody<EngineStats>(body, "object", target.cluster),
    target,
  );
  return { summary: summarizeStats(raw), raw };
}

/** The sample Docker gives of a container that does not run: no reading, every figure zero. */
function idleStats(): EngineStats {
  const never = "0001-01-01T00:00:00Z";
  return {
    read: never,
    preread: never,
    pids_stats: {},
    blkio_stats: {},
    cpu_stats: { cpu_usage: { total_usage: 0 } },
    precpu_stats: { cpu_usage: { total_usage: 0 } },
    memory_stats: {},
  };
}

/** `id` and `name` as Docker sends them (Podman leaves `id` null and `name` without its `/`). */
function withIdentity(raw: EngineStats, target: { id: string; name: string }): EngineStats {
  const name = typeof raw.name === "string" && raw.name ? raw.name : target.name;
  return {
    ...raw,
    id: typeof raw.id === "string" && raw.id ? raw.id : target.id,
    name: name.startsWith("/") ? name : `/${name}`,
  };
}

/**
 * One sample per engine sample (about one a second) until `options.signal` aborts or the consumer
 * stops. Followers of one container share one engine stream; one that leaves more than
 * `maxQueuedBytes` (4 MiB) unread is dropped with `CLIENT_TOO_SLOW`.
 * @example
 * ```ts
 * const controller = new AbortController();
 * const samples = await streamContainerStats(
 *   { cluster: "prod", name: "web" },
 *   { fleet, signal: controller.signal },
 * );
 * for await (const { summary } of samples) console.log(summary.cpuPercent);
 * ```
 */
export async function streamContainerStats(
  input: ContainerRef,
  options: ShareStreamOptions,
): Promise<AsyncGenerator<StatsSample>> {
  const target = await findContainer(input, options);
  // One engine stream per container, however many follow its stats (core/hub/shared-stream.ts).
  const lines = await shareStream(
    target.cluster,
    `stats ${target.id}`,
    async (signal) => {
      const chunks = await openEngineStream(
        target.cluster,
        (engine, streamSignal) =>
          engine.get(`/containers/${target.id}/stats`, streamSignal, {
            query: { stream: true },
            stream: true,
          }) as Promise<Readable>,
        { ...options, signal, statuses: target.statuses },
      );
      return splitLines(chunks);
    },
    options,
  );
  return samples(lines, target);
}

async function* splitLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const lines = ndjsonSplitter();
  for await (const chunk of chunks) yield* lines(chunk);
}

async function* samples(
  lines: AsyncIterable<string>,
  target: { id: string; name: string },
): AsyncGenerator<StatsSample> {
  for await (const line of lines) {
    let raw: EngineStats;
    try {
      raw = withIdentity(parseEngineJson(line) as EngineStats, target);
    } catch (error) {
      throw new DocklensError("ENGINE_ERROR", "the engine sent a stats sample that is not JSON", {
        cause: error,
      });
    }
    yield { summary: summarizeStats(raw), raw };
  }
}
