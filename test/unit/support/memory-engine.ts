// An engine held in memory, behind the same seam as a real one (EngineBackend): the containers it
// lists, the inspect bodies it answers (one may be held: a slow inspect), and its `/events`
// streams, which a test writes events to, cuts (a gap) or fails while the engine is away (a
// restart). Given to createFleet's `backend`, it drives the hub and the mirror in-process, under
// fake timers, in milliseconds; test/integration/ drives them against real engines.
import { PassThrough, type Readable } from "node:stream";
import { normalizeConfig } from "../../../src/core/config/config-schema.ts";
import type { EngineBackend, EngineGetOptions } from "../../../src/core/engine/engine-backend.ts";
import { createFleet, type Fleet } from "../../../src/core/engine/fleet.ts";
import { statusText, type StateTimes } from "../../../src/core/hub/status-text.ts";

/** A container of the memory engine: what its list item and inspect body are made of. */
export interface MemoryContainer {
  id: string;
  name: string;
  state: "created" | "running" | "exited";
  /** ISO times of its state, for the `Status` text made from its inspect body. */
  startedAt?: string;
  finishedAt?: string;
  exitCode?: number;
  /** Its cpu and memory use, in percent, as its stats sample tells them. */
  cpu?: number;
  memory?: number;
  labels?: Record<string, string>;
}

/** The memory engine: a test changes `containers` and says so with {@link MemoryEngine.event}. */
export class MemoryEngine implements EngineBackend {
  /** Newest first, as the engines list them. */
  containers: MemoryContainer[] = [];
  /** Each call: `GET path`, and `filtered` (a list by id) or `since` (events after a gap). */
  readonly calls: string[] = [];
  /** Away (stopped, restarting): every call fails as a refused connection. */
  away = false;
  readonly #streams = new Set<PassThrough>();
  readonly #held = new Map<string, Promise<void>>();

  /** Each call of `what` (`/version`, `/containers/json filtered`) made so far. */
  count(what: string): number {
    return this.calls.filter((call) => call === `GET ${what}`).length;
  }

  /** Event streams open now. */
  get streams(): number {
    return this.#streams.size;
  }

  get(path: string, signal: AbortSignal, options: EngineGetOptions = {}): Promise<unknown> {
    const query = (options.query ?? {}) as Record<string, unknown>;
    const asked = query.filters ? " filtered" : query.since ? " since" : "";
    this.calls.push(`GET ${path}${asked}`);
    if (this.away)
      return Promise.reject(
        Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      );
    if (path === "/version")
      return Promise.resolve({ Version: "28.0.0", ApiVersion: "1.48", Components: [] });
    if (path === "/events") return Promise.resolve(this.#eventStream(signal));
    if (path === "/containers/json") return Promise.resolve(this.#list(query.filters));
    const stats = /^\/containers\/([^/]+)\/stats$/.exec(path);
    if (stats) return Promise.resolve(this.#stats(decodeURIComponent(stats[1]!)));
    const inspect = /^\/containers\/([^/]+)\/json$/.exec(path);
    if (inspect) return this.#inspect(decodeURIComponent(inspect[1]!));
    return Promise.reject(notFound(`no route ${path}`));
  }

  attach(): Promise<Readable> {
    return Promise.reject(notFound("attach is not kept in memory"));
  }

  close(): void {}

  /** Send `Action` of container `id` (with its `Attributes`) on every open event stream. */
  event(Action: string, id: string, Attributes: Record<string, string> = {}): void {
    const now = Date.now();
    const event = {
      Type: "container",
      Action,
      Actor: { ID: id, Attributes },
      time: Math.floor(now / 1000),
      timeNano: now * 1_000_000,
    };
    for (const stream of this.#streams) stream.write(`${JSON.stringify(event)}\n`);
  }

  /** End every open event stream, as a dropped connection does: a gap. */
  cut(): void {
    for (const stream of this.#streams)
      stream.destroy(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
  }

  /** Hold the inspects of container `id` until the function returned is called. */
  hold(id: string): () => void {
    let release!: () => void;
    this.#held.set(id, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      this.#held.delete(id);
      release();
    };
  }

  #eventStream(signal: AbortSignal): PassThrough {
    const stream = new PassThrough();
    this.#streams.add(stream);
    stream.once("close", () => this.#streams.delete(stream));
    signal.addEventListener("abort", () => stream.destroy(), { once: true });
    return stream;
  }

  #list(filters: unknown): object[] {
    const ids =
      typeof filters === "string" ? (JSON.parse(filters) as { id?: string[] }).id : undefined;
    return this.containers
      .filter((container) => !ids || ids.some((id) => container.id.startsWith(id)))
      .map((container) => ({
        Id: container.id,
        Names: [`/${container.name}`],
        Image: "busybox:1",
        ImageID: `sha256:${"b".repeat(64)}`,
        Command: "sh",
        Created: Math.floor(Date.parse("2026-12-01T00:00:00Z") / 1000),
        Ports: [],
        Labels: container.labels ?? {},
        Mounts: [],
        State: container.state,
        // Docker's text, as it words it at the time of the list.
        Status: statusText(stateOf(container), "docker", Date.now()),
        HostConfig: { NetworkMode: "bridge" },
      }));
  }

  /** A sample whose figures are the container's `cpu` and `memory` percentages. */
  #stats(id: string): object {
    const container = this.containers.find((one) => one.id === id);
    if (!container) throw notFound(`No such container: ${id}`);
    const system = 1_000_000_000;
    return {
      read: new Date(Date.now()).toISOString(),
      cpu_stats: {
        cpu_usage: { total_usage: ((container.cpu ?? 0) / 100) * system },
        system_cpu_usage: system,
        online_cpus: 1,
      },
      precpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 0 },
      memory_stats: { usage: container.memory ?? 0, limit: 100 },
    };
  }

  async #inspect(id: string): Promise<object> {
    await this.#held.get(id);
    const container = this.containers.find((one) => one.id === id);
    if (!container) throw notFound(`No such container: ${id}`);
    return {
      Id: id,
      State: stateOf(container),
      HostConfig: { NetworkMode: "bridge" },
    };
  }
}

/** The state of `container` as its inspect body words it. */
function stateOf(container: MemoryContainer): StateTimes {
  return {
    Status: container.state,
    Running: container.state === "running",
    ExitCode: container.exitCode ?? 0,
    StartedAt: container.startedAt ?? "0001-01-01T00:00:00Z",
    FinishedAt: container.finishedAt ?? "0001-01-01T00:00:00Z",
  };
}

function notFound(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 404, json: { message } });
}

/**
 * A live fleet as serve keeps (its grace period the default) of one cluster, `alpha`, on
 * `engine`; with the `alerts` of a config file, when given.
 */
export function memoryFleet(engine: MemoryEngine, alerts?: object): Fleet {
  const config = normalizeConfig(
    { clusters: [{ name: "alpha", host: "unix:///nonexistent/docklens-memory.sock" }], alerts },
    "memory.json",
    {},
  );
  return createFleet(config, { live: true, backend: () => engine });
}
