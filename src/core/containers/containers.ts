// One container of a cluster: found by name, id or unique id prefix, and its inspect body.
import type { ClusterConfig } from "../config/cluster-config.ts";
import { callEngine, expectBody, type StatusErrors } from "../engine/engine.ts";
import type { InspectContainerResult } from "./container-types.ts";
import { DocklensError, isDocklensError } from "../errors.ts";
import { checkName } from "../names.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "../engine/fleet.ts";
import { listContainers } from "./list-containers.ts";
import { redactEnv } from "./secrets.ts";

export type { ContainerItem, InspectContainerResult } from "./container-types.ts";
export { redactEnv } from "./secrets.ts";
// The lists live in list-containers.ts; this module is the face of both, as before.
export {
  listAllContainers,
  listContainers,
  listMirroredContainers,
  newestFirst,
  psDefault,
  toContainerItem,
} from "./list-containers.ts";
export type {
  ClusterContainerItem,
  EngineContainerItem,
  ListAllContainersResult,
  ListContainersOptions,
  ListContainersResult,
} from "./list-containers.ts";

/** A container: its name (with or without its leading `/`), full id, or unique id prefix. */
export type ContainerRef = ItemRef;

/** Options of {@link inspectContainer}. */
export interface InspectContainerOptions extends CoreOptions {
  /**
   * Show sensitive environment values (docs/http-interface.md, "Secrets"); defaults to the
   * config's `showSecrets`.
   */
  showSecrets?: boolean;
}

/**
 * The engine's inspect body of one container, with sensitive environment values replaced by
 * `<redacted>` unless secrets are shown (docs/http-interface.md, "Secrets"). Throws
 * `CONTAINER_NOT_FOUND` for an unknown one.
 * @example
 * ```ts
 * const detail = await inspectContainer({ cluster: "prod", name: "web" }, { fleet });
 * console.log(detail.State.Health?.Status);
 * ```
 */
export async function inspectContainer(
  input: ContainerRef,
  options: InspectContainerOptions,
): Promise<InspectContainerResult> {
  const { detail } = await inspectRaw(input, options);
  const showSecrets = options.showSecrets ?? options.fleet.config.showSecrets;
  // A copy: the body may be shared with other callers of the same read.
  return !showSecrets && Array.isArray(detail.Config?.Env)
    ? { ...detail, Config: { ...detail.Config, Env: redactEnv(detail.Config.Env) } }
    : detail;
}

/** A container found by name, with what the streaming calls (logs, stats, attach) need of it. */
export interface ContainerTarget {
  cluster: ClusterConfig;
  /** The full id: later calls use it, so they reach the container that was found. */
  id: string;
  /** Its name as the engine gives it (`/web`). */
  name: string;
  /** Output of a TTY container is not multiplexed. */
  tty: boolean;
  running: boolean;
  /** A paused container is running but frozen: attach is refused, top and stats still work. */
  paused: boolean;
  statuses: StatusErrors;
}

/**
 * Find one container; throws `CONTAINER_NOT_FOUND`, or `CONTAINER_NOT_RUNNING` with
 * `running: true` when it is stopped (or, with `unpaused: true` too, paused).
 * @example
 * ```ts
 * const { id, running } = await findContainer({ cluster: "prod", name: "web" }, { fleet });
 * ```
 */
export async function findContainer(
  input: ContainerRef,
  options: CoreOptions & { running?: boolean; unpaused?: boolean },
): Promise<ContainerTarget> {
  const { cluster, statuses, detail } = await inspectRaw(input, options);
  const running = Boolean(detail.State?.Running);
  const paused = Boolean(detail.State?.Paused);
  if (options.running && !running)
    throw new DocklensError("CONTAINER_NOT_RUNNING", statuses[409]!.message as string);
  if (options.unpaused && paused)
    throw new DocklensError(
      "CONTAINER_NOT_RUNNING",
      `container ${JSON.stringify(input.name)} of cluster "${cluster.name}" is paused`,
    );
  return {
    cluster,
    id: detail.Id,
    name: detail.Name,
    tty: Boolean(detail.Config?.Tty),
    running,
    paused,
    statuses,
  };
}

async function inspectRaw(input: ContainerRef, options: CoreOptions) {
  const cluster = resolveCluster(input.cluster, options);
  const name = checkName("container", input.name);
  const statuses = containerStatuses(input.name, cluster);
  try {
    const body = await callEngine(
      cluster,
      (engine, signal) => engine.get(`/containers/${name}/json`, signal),
      { ...options, statuses, read: { kind: "container", name } },
    );
    return {
      cluster,
      statuses,
      detail: expectBody<InspectContainerResult>(body, "object", cluster),
    };
  } catch (error) {
    if (isDocklensError(error) && error.code === "AMBIGUOUS_NAME")
      throw await ambiguous(input.name, cluster, options);
    throw error;
  }
}

/** Shown at most of the containers an ambiguous prefix matches. */
const MAX_CANDIDATES = 5;

/** `AMBIGUOUS_NAME` naming the containers whose ids start with `prefix`, so the user can pick one. */
async function ambiguous(
  prefix: string,
  cluster: ClusterConfig,
  options: CoreOptions,
): Promise<DocklensError> {
  const { containers } = await listContainers(String(cluster.id), options);
  const matches = containers.filter((container) => container.Id.startsWith(prefix));
  const shown = matches
    .slice(0, MAX_CANDIDATES)
    .map(
      (container) =>
        `${container.Id.slice(0, 12)} (${container.Names[0]?.replace(/^\//, "") ?? "no name"})`,
    );
  const more =
    matches.length > MAX_CANDIDATES ? ` and ${matches.length - MAX_CANDIDATES} more` : "";
  return new DocklensError(
    "AMBIGUOUS_NAME",
    `container id prefix ${JSON.stringify(prefix)} matches ${matches.length} containers of ` +
      `cluster "${cluster.name}": ${shown.join(", ")}${more}; give more of the id or the name`,
  );
}

/** What the engine's 404 and 409 mean for calls about one container. */
export function containerStatuses(name: string, cluster: ClusterConfig): StatusErrors {
  const where = `container ${JSON.stringify(name)}`;
  return {
    404: {
      code: "CONTAINER_NOT_FOUND",
      message: `${where} not found in cluster "${cluster.name}"`,
    },
    409: {
      code: "CONTAINER_NOT_RUNNING",
      message: `${where} of cluster "${cluster.name}" is not running`,
    },
  };
}
