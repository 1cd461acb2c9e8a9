// The clusters docklens knows and their engine connections: what every core call is given.
import type { ClusterConfig, DocklensConfig } from "../config/cluster-config.ts";
import { loadConfig, type LoadConfigOptions } from "../config/config.ts";
import type { EngineBackend } from "./engine-backend.ts";
import { createEngineClient, type EnginePurpose } from "./engine-client.ts";
import { DocklensError, type ErrorBody, type ErrorCode } from "../errors.ts";
import { Coalescer, Limiter } from "../flow.ts";
import { checkName } from "../names.ts";
import type { ReadKey } from "./shared-reads.ts";

/** Per cluster: the bound on calls in flight, the sharing of identical reads, and what the calls came to. */
export interface EngineSlot {
  limiter: Limiter;
  /**
   * The bound on stats samples in flight: each waits about a second on the engine's second
   * reading, not on its work, so they have a wider bound of their own rather than hold the calls'.
   */
  samples: Limiter;
  reads: Coalescer<ReadKey>;
  /** Engine calls made (a shared read counts once). */
  calls: number;
  /** Those that failed, by error code. */
  failures: Map<ErrorCode, number>;
  /**
   * The engine's error while the cluster's live mirror knows it down or hung (core/hub/): shared
   * reads then fail at once with it rather than wait for the time limit again.
   */
  down?: ErrorBody;
  /** Aborts when the fleet closes: the cluster's event stream and mirror close with it. */
  closing: AbortSignal;
}

/** How long a subscription outlives its last user by default: a page reloaded finds it open. */
const DEFAULT_GRACE_MS = 30_000;

/** Stats samples in flight per engine at most (the engine client's pool for them is as wide). */
const MAX_SAMPLES = 64;

/** Marks a fleet {@link createFleet} made: one built by hand has no engine clients. */
const MADE: unique symbol = Symbol("docklens fleet");

/**
 * The fleet: the configured clusters and their engine connections, each client created on first
 * use and reused. Every core operation is given one, made by {@link createFleet} or
 * {@link loadFleet} (or a copy of one with another `config`).
 */
export interface Fleet {
  readonly [MADE]: true;
  readonly config: DocklensConfig;
  /** The call limiter and read coalescer of a cluster. */
  slot(cluster: ClusterConfig): EngineSlot;
  /**
   * Close every engine connection, event stream and mirror (a CLI command then ends at once);
   * the fleet may still be used afterwards.
   */
  close(): void;
}

/** How a fleet keeps engines watched (see the hub, core/hub/). */
export interface FleetOptions {
  /**
   * Serve container lists from a live mirror per cluster (list-then-watch) rather than asking the
   * engine each time: what `docklens serve` does. The CLI's one-shot commands leave it off.
   */
  live?: boolean;
  /**
   * How long a cluster's event subscription and mirror outlive their last user: 30 s by default
   * with `live`, else none.
   */
  graceMs?: number;
}

/** Options of {@link createFleet}. */
export interface CreateFleetOptions extends FleetOptions {
  /**
   * Where each cluster's engine backend comes from: an engine client by default (a socket, TCP,
   * SSH, a node). The unit tests give an in-memory engine (test/unit/support/memory-engine.ts).
   */
  backend?: (cluster: ClusterConfig, purpose: EnginePurpose) => EngineBackend;
}

/**
 * A fleet with its engine clients, as the core sees it. Internal: the published {@link Fleet}
 * leaves `engine` out: the engines are the core's own business.
 */
interface EngineFleet extends Fleet {
  /** The engine backend of a cluster: itself once built, a promise while it is built. */
  engine(cluster: ClusterConfig, purpose?: EnginePurpose): EngineBackend | Promise<EngineBackend>;
  /** Reads over many clusters in flight, shared as a cluster's reads are. */
  acrossReads: Coalescer<ReadKey>;
  hub: Required<FleetOptions>;
}

/**
 * The engine backend of a cluster of `fleet`, which {@link createFleet} made (or a copy of one):
 * the backend itself once built, so that every call after the first skips building's bound.
 */
export function fleetEngine(
  fleet: Fleet,
  cluster: ClusterConfig,
  purpose?: EnginePurpose,
): EngineBackend | Promise<EngineBackend> {
  return engineFleet(fleet).engine(cluster, purpose);
}

/** The sharing of reads over many clusters of `fleet` (and of every copy of it). */
export function fleetAcrossReads(fleet: Fleet): Coalescer<ReadKey> {
  return engineFleet(fleet).acrossReads;
}

/** Whether `fleet` keeps live mirrors, and the grace period of its subscriptions. */
export function fleetHubOptions(fleet: Fleet): Required<FleetOptions> {
  return engineFleet(fleet).hub;
}

function engineFleet(fleet: Fleet): EngineFleet {
  if (typeof (fleet as Partial<EngineFleet>).engine !== "function")
    throw new DocklensError(
      "INTERNAL_ERROR",
      "this fleet has no engine clients: make it with createFleet or loadFleet",
    );
  return fleet as EngineFleet;
}

/** One item of a cluster: a container, image, volume or network. */
export interface ItemRef {
  /** Cluster id or name (docs/http-interface.md, "Cluster references"). */
  cluster: string;
  /** The item's name or id, as the engine accepts it. */
  name: string;
}

/** Options every core operation takes. */
export interface CoreOptions {
  fleet: Fleet;
  /** Cancels the engine calls of the operation (a client that left, say). */
  signal?: AbortSignal;
}

/**
 * Build a fleet over a loaded configuration.
 * @example
 * ```ts
 * const fleet = createFleet(await loadConfig({ configPath: "docklens.json" }));
 * ```
 */
export function createFleet(config: DocklensConfig, options: CreateFleetOptions = {}): Fleet {
  // A client while it is built, then the client itself.
  const clients = new Map<string, EngineBackend | Promise<EngineBackend>>();
  const slots = new Map<number, EngineSlot>();
  // Per slot: aborted when the fleet closes, then replaced, so that a later use opens anew.
  const closers = new Map<EngineSlot, AbortController>();
  const fleet: EngineFleet = {
    [MADE]: true,
    config,
    acrossReads: new Coalescer<ReadKey>(),
    // Without mirrors (the CLI) a subscription has one user: it closes when that one leaves.
    hub: {
      live: options.live ?? false,
      graceMs: options.graceMs ?? (options.live ? DEFAULT_GRACE_MS : 0),
    },
    engine(cluster, purpose = "call") {
      const key = `${cluster.id}:${purpose}`;
      const client = clients.get(key);
      if (client) return client;
      const building = options.backend
        ? Promise.resolve(options.backend(cluster, purpose))
        : createEngineClient(cluster, purpose);
      clients.set(key, building);
      // Unless the fleet was closed meanwhile (the next use then builds anew): kept as itself, or,
      // failed to build (an unreadable TLS file), dropped, to be retried on the next call.
      const settle = (backend?: EngineBackend) => {
        if (clients.get(key) !== building) return;
        if (backend) clients.set(key, backend);
        else clients.delete(key);
      };
      building.then(settle, () => settle());
      return building;
    },
    slot(cluster) {
      let slot = slots.get(cluster.id);
      if (!slot) {
        const closer = new AbortController();
        slot = {
          limiter: new Limiter(cluster.maxConcurrency),
          samples: new Limiter(MAX_SAMPLES),
          reads: new Coalescer<ReadKey>(cluster.cacheTtlMs),
          calls: 0,
          failures: new Map(),
          closing: closer.signal,
        };
        slots.set(cluster.id, slot);
        closers.set(slot, closer);
      }
      return slot;
    },
    close() {
      for (const [slot, closer] of closers) {
        const next = new AbortController();
        closers.set(slot, next);
        slot.closing = next.signal;
        closer.abort();
      }
      // Those still being built are closed once built.
      for (const client of clients.values())
        Promise.resolve(client).then(
          (c) => c.close(),
          () => {},
        );
      clients.clear();
    },
  };
  return fleet;
}

/**
 * Load the configuration (see {@link loadConfig}) and build a fleet over it.
 * @example
 * ```ts
 * const fleet = await loadFleet();
 * try {
 *   console.log((await listClusters({ fleet })).clusters.length);
 * } finally {
 *   fleet.close();
 * }
 * ```
 */
export async function loadFleet(options: LoadConfigOptions & FleetOptions = {}): Promise<Fleet> {
  const { live, graceMs, ...load } = options;
  return createFleet(await loadConfig(load), {
    ...(live !== undefined ? { live } : {}),
    ...(graceMs !== undefined ? { graceMs } : {}),
  });
}

/** `1 local, 2 prod`: the clusters an error about a cluster reference lists, id and name each. */
export function knownClusters(clusters: readonly ClusterConfig[]): string {
  return clusters.map((cluster) => `${cluster.id} ${cluster.name}`).join(", ");
}

/**
 * Find a cluster by reference (docs/http-interface.md, "Cluster references"): digits are an id,
 * anything else a name. Throws `INVALID_NAME` for a malformed reference and `CLUSTER_NOT_FOUND`
 * for an unknown one.
 * @example
 * ```ts
 * const cluster = resolveCluster("prod", { fleet }); // by name, or "2" by id
 * ```
 */
export function resolveCluster(ref: string, options: CoreOptions): ClusterConfig {
  const { clusters } = options.fleet.config;
  const found = /^\d+$/.test(ref)
    ? clusters.find((cluster) => cluster.id === Number(ref))
    : (checkName("cluster", ref), clusters.find((cluster) => cluster.name === ref));
  if (!found) {
    const known = knownClusters(clusters);
    const shown = /^\d+$/.test(ref) ? `id ${ref.slice(0, 20)}` : JSON.stringify(ref);
    // A docker context docklens skipped: why, here, rather than a warning on every command.
    const skipped = options.fleet.config.skipped?.find(({ context }) => context === ref);
    throw new DocklensError(
      "CLUSTER_NOT_FOUND",
      `cluster ${shown} not found${skipped ? `: ${skipped.warning}` : ""} (known: ${known})`,
    );
  }
  return found;
}

/**
 * The clusters `refs` name (see {@link resolveCluster}), each once, in the order named; every
 * cluster when there are none. `local` and `1` may name one cluster.
 */
export function resolveClusters(
  refs: readonly string[] | undefined,
  options: CoreOptions,
): ClusterConfig[] {
  if (!refs?.length) return options.fleet.config.clusters;
  return [...new Set(refs.map((ref) => resolveCluster(ref, options)))];
}

/**
 * A view of `fleet` that holds only the clusters `sees` keeps: any other is unknown to the
 * operations given it, exactly as a cluster that does not exist. Engine clients, bounds and
 * shared reads stay the fleet's own (the copy carries its `engine` along).
 */
export function narrowFleet(fleet: Fleet, sees: (cluster: ClusterConfig) => boolean): Fleet {
  // Nor does it hear of the docker contexts docklens skipped.
  const { skipped: _, clusters: __, ...config } = fleet.config;
  // The fleet's list changes as nodes come and go (core/node/node-clusters.ts): the view follows,
  // filtering again only when the list was replaced.
  let from: ClusterConfig[] | undefined;
  let seen: ClusterConfig[] = [];
  const view = {
    ...config,
    get clusters() {
      if (from !== fleet.config.clusters) {
        from = fleet.config.clusters;
        seen = from.filter(sees);
      }
      return seen;
    },
  };
  return { ...fleet, config: view };
}
