// The containers of a cluster and of many, as \`docker ps\` lists them: from the live mirror when
// serve keeps one, else one engine call, mapped to the items docklens serves.
import type { EngineBackend } from "../engine/engine-backend.ts";
import type { ClusterConfig } from "../config/cluster-config.ts";
import {
  acrossClusters,
  shareAcross,
  type AcrossClustersOptions,
  type ClusterError,
  type ClusterRef,
} from "../engine/across-clusters.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { ContainerItem, InspectContainerResult } from "./container-types.ts";
import type { Override } from "../json.ts";
import { filteredCall, type EngineFilters, type ListOptions } from "../engine/filters.ts";
import { readMirror } from "../hub/container-mirror.ts";
import { shareBody } from "../engine/shared-reads.ts";
import { familiarReference } from "../objects/references.ts";
import { resolveCluster, type CoreOptions } from "../engine/fleet.ts";

/**
 * An item of the engine's `GET /containers/json`, as it comes: `Created` in Unix seconds, and
 * what Podman may leave null or out.
 */
export type EngineContainerItem = Override<
  ContainerItem,
  {
    Created: number;
    Ports: ContainerItem["Ports"] | null;
    Mounts: ContainerItem["Mounts"] | null;
    Labels: ContainerItem["Labels"] | null;
    HostConfig?: ContainerItem["HostConfig"];
    NetworkSettings: Override<
      ContainerItem["NetworkSettings"],
      { Networks: ContainerItem["NetworkSettings"]["Networks"] | null }
    >;
  }
>;

/** Options of the container lists: docker's filters, and whether to ask for sizes. */
export interface ListContainersOptions extends ListOptions {
  /**
   * Each container's `SizeRw` and `SizeRootFs`, as `docker ps --size` asks (`size=true`): the
   * engine walks every container's layers for them, so a list with sizes is slow on big engines.
   */
  size?: boolean;
}

/** Body of `/list/:cluster/containers`. */
export interface ListContainersResult {
  containers: ContainerItem[];
  /** The running ones, in the same order. */
  running: ContainerItem[];
}

/**
 * All containers of a cluster, stopped ones included, and the running sub-list
 * (docs/http-interface.md, "GET /list/:cluster/containers"), with docker's filters applied by
 * the engine when given. `cluster` is an id or a name.
 * @example
 * ```ts
 * const { containers, running } = await listContainers("prod", { fleet }); // GET /list/prod/containers
 * ```
 */
export async function listContainers(
  cluster: string,
  options: ListContainersOptions,
): Promise<ListContainersResult> {
  const config = resolveCluster(cluster, options);
  // serve's lists without filters or sizes come from the cluster's live mirror (core/hub/).
  if (!options.size && !Object.keys(options.filters ?? {}).length) {
    const mirrored = await listMirroredContainers(config, options);
    if (mirrored) return mirrored;
  }
  const { query, statuses } = filteredCall(options.filters);
  // The mapping runs inside the shared read: callers of the same read get the same body.
  return callEngine(
    config,
    async (engine, signal) => {
      const items = await engine.get("/containers/json", signal, {
        query: { all: true, ...(options.size ? { size: true } : {}), ...query },
      });
      const engineItems = expectBody<EngineContainerItem[]>(items, "array", config);
      const modes = await networkModes(engine, engineItems, signal);
      const containers = engineItems.map((item) => toContainerItem(item, modes.get(item.Id)));
      return { containers, running: containers.filter(isRunning) };
    },
    {
      ...options,
      read: containersRead(options),
      ...(statuses ? { statuses } : {}),
    },
  );
}

/**
 * A cluster's containers as {@link listContainers} lists them, from its live mirror (one body
 * object until the mirror changes), or undefined when the fleet keeps no mirrors. A mirror that
 * is not live throws its cluster's known error at once.
 */
export function listMirroredContainers(
  config: ClusterConfig,
  options: CoreOptions,
): Promise<ListContainersResult | undefined> {
  return readMirror(config, options, (entries) => {
    const containers = entries.map(({ item, status, networkMode }) => {
      const engineItem = { ...item, Status: status } as unknown as EngineContainerItem;
      // As the engine's list reads it: the inspect body's mode only for a container with no network.
      const unnamed =
        !engineItem.HostConfig && !Object.keys(engineItem.NetworkSettings?.Networks ?? {}).length;
      return toContainerItem(engineItem, unnamed ? networkMode : undefined);
    });
    return shareBody({ containers, running: containers.filter(isRunning) });
  });
}

/** A container item of an across-cluster list: a cluster's item and the cluster it is in. */
export type ClusterContainerItem = ContainerItem & { cluster: ClusterRef };

/** Body of `/list/containers`: every cluster's containers, the running ones, and the clusters that failed. */
export interface ListAllContainersResult {
  containers: ClusterContainerItem[];
  running: ClusterContainerItem[];
  errors: ClusterError[];
}

/**
 * The containers of every cluster (or of `options.clusters`), asked concurrently: in cluster id
 * order, then as each engine lists them. A cluster that fails is in `errors`, and the others
 * are still listed; filters apply on every engine.
 * @example
 * ```ts
 * // GET /list/containers?cluster=prod&cluster=staging
 * const { running, errors } = await listAllContainers({ fleet, clusters: ["prod", "staging"] });
 * for (const item of running) console.log(item.cluster.name, item.Names[0]);
 * ```
 */
export async function listAllContainers(
  options: ListContainersOptions & AcrossClustersOptions,
): Promise<ListAllContainersResult> {
  return shareAcross(options, containersRead(options), async (shared) => {
    const { results, errors } = await acrossClusters(shared, (config) =>
      listContainers(String(config.id), shared),
    );
    // Every cluster's list the same object as last time (served from unchanged mirrors) and the
    // same clusters failing the same way (a node down): the body built then, whose serialisation
    // and compression the server kept too.
    const lists = results.map((result) => result.value);
    const failed = JSON.stringify(errors);
    const last = lists[0] ? builtAcross.get(lists[0]) : undefined;
    if (
      last?.failed === failed &&
      last.lists.length === lists.length &&
      last.lists.every((x, i) => x === lists[i])
    )
      return last.body;
    const containers = results.flatMap(({ cluster, value }) =>
      value.containers.map((item) => ({ ...item, cluster })),
    );
    const body = { containers, running: containers.filter(isRunning), errors };
    if (lists[0]) builtAcross.set(lists[0], { lists, failed, body });
    return body;
  });
}

/**
 * The across-cluster body last built from these lists, keyed by the first cluster's list, with
 * its errors serialised (a few small objects) to compare.
 */
const builtAcross = new WeakMap<
  ListContainersResult,
  { lists: ListContainersResult[]; failed: string; body: ListAllContainersResult }
>();

/** The shared read of a container list: with sizes, another read than without. */
function containersRead(options: ListContainersOptions) {
  return { kind: "containers" as const, filters: options.filters, size: options.size === true };
}

/** The states whose containers the engine counts as running: paused and restarting ones too. */
const UP_STATES = new Set(["running", "paused", "restarting"]);

/**
 * The containers `docker ps` lists without `-a`, out of a list's `containers`: those the engine
 * counts as running (paused and restarting ones too), or, when the filters name a `status`, every
 * container they kept, as the daemon lists all for a status filter (moby, daemon/list.go,
 * `foldFilter`; the docker CLI adds nothing). The body's `running` stays the `running` ones.
 * @example
 * ```ts
 * const { containers } = await listAllContainers({ fleet, filters: { status: ["exited"] } });
 * psDefault(containers, { status: ["exited"] }); // every exited container, as docker ps -f status=exited
 * ```
 */
export function psDefault<T extends ContainerItem>(
  containers: readonly T[],
  filters: EngineFilters | undefined,
): T[] {
  return filters?.status?.length
    ? [...containers]
    : containers.filter((container) => UP_STATES.has(container.State));
}

/**
 * Containers newest first, as `docker ps` lists them: by `Created` (whole seconds); those of one
 * second keep the order given (a cluster list's is the engine's, newest first to the nanosecond;
 * an across-cluster list's, by cluster id).
 * @example
 * ```ts
 * const { containers } = await listAllContainers({ fleet });
 * newestFirst(containers)[0]; // the last created container of every cluster
 * ```
 */
export function newestFirst<T extends Pick<ContainerItem, "Created">>(
  containers: readonly T[],
): T[] {
  return [...containers].sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created));
}

function isRunning(container: ContainerItem): boolean {
  return container.State === "running";
}

/**
 * The engine's Unix seconds become `new Date(s * 1000).toISOString()`, and `Image` is shown as
 * `docker ps` shows it (`docker.io/local/app:1` is `local/app:1`). And what Podman sends
 * otherwise than Docker is made Docker's shape: null `Ports`, `Mounts`, `Labels` and
 * `NetworkSettings.Networks` become `[]`, `[]`, `{}` and `{}`, a missing `HostConfig` gets
 * `networkMode` (what the engine's inspect body says), else the container's network as Docker's
 * `NetworkMode` names it, and its `State` "stopped" is Docker's "exited".
 */
export function toContainerItem(item: EngineContainerItem, networkMode?: string): ContainerItem {
  const networks = item.NetworkSettings?.Networks ?? {};
  return {
    ...item,
    Image: familiarReference(item.Image),
    Created: new Date(item.Created * 1000).toISOString(),
    Ports: item.Ports ?? [],
    Mounts: item.Mounts ?? [],
    Labels: item.Labels ?? {},
    HostConfig: item.HostConfig ?? {
      NetworkMode: networkMode ?? Object.keys(networks)[0] ?? "default",
    },
    NetworkSettings: { ...item.NetworkSettings, Networks: networks },
    State: item.State === "stopped" ? "exited" : item.State,
  };
}

/**
 * The network modes of the containers the engine lists with neither `HostConfig` nor a network:
 * Podman lists one of `--network none` or `host` so, and says which only in its inspect body,
 * asked for those containers alone. One removed since the list was made is left out.
 */
async function networkModes(
  engine: EngineBackend,
  items: EngineContainerItem[],
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const unnamed = items.filter(
    (item) => !item.HostConfig && !Object.keys(item.NetworkSettings?.Networks ?? {}).length,
  );
  const modes = await Promise.all(
    unnamed.map(async (item) => {
      try {
        const body = await engine.get(`/containers/${item.Id}/json`, signal);
        return [item.Id, (body as InspectContainerResult).HostConfig?.NetworkMode] as const;
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404)
          return [item.Id, undefined] as const;
        throw error;
      }
    }),
  );
  return new Map(modes.filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
