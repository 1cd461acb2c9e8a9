import type { AlertRule } from "../config/alerts-schema.ts";
import { describeTarget } from "../config/receiver-target.ts";
import type { ClusterConfig, ClusterSource } from "../config/cluster-config.ts";
import { endpointHost } from "../config/endpoint.ts";
import { callEngine, expectBody, translateEngineError } from "../engine/engine.ts";
import {
  forgetEngineFacts,
  readEngineVersion,
  type EngineVersion,
} from "../engine/engine-version.ts";
import type { DockerInfo } from "../objects/engine-types.ts";
import type { ErrorBody } from "../errors.ts";
import { resolveCluster, type CoreOptions } from "../engine/fleet.ts";

export type { DockerInfo } from "../objects/engine-types.ts";

/**
 * A registered cluster as `/list/cluster` shows it, with where it came from
 * (docs/http-interface.md, "GET /list/cluster").
 */
export interface ClusterRecord {
  id: number;
  name: string;
  fullname: string;
  icon: string;
  host: string;
  port: number;
  docker: DockerInfo;
  /** `config`, `context` (a docker CLI context), `discovered` (a local socket) or `default`. */
  source: ClusterSource;
  /** Present when the engine could not be asked (docs/http-interface.md, "Failing engines"). */
  error?: ErrorBody;
}

/** Body of `/list/cluster`. */
export interface ListClustersResult {
  clusters: ClusterRecord[];
}

/** Body of `/detail/cluster/:clusterid`. */
export interface InspectClusterResult {
  cluster: Omit<ClusterRecord, "docker" | "error"> & {
    protocol: ClusterConfig["protocol"];
    tls: boolean;
    /** The docker context it came from. */ context?: string;
  };
  docker: DockerInfo;
  /** The engine as `docker version` names it; absent when the engine could not be asked. */
  engine?: EngineName;
  error?: ErrorBody;
}

/** Which engine answers: `Docker Engine` or `Podman Engine`, and its version. */
export interface EngineName {
  name: string;
  version: string;
}

/**
 * List every registered cluster with its engine information. The engines are asked
 * concurrently, each under its own time limit; one that fails gets `docker: {}` and an `error`
 * instead of failing the list (docs/http-interface.md, "Failing engines").
 * @example
 * ```ts
 * const { clusters } = await listClusters({ fleet }); // GET /list/cluster
 * for (const cluster of clusters) console.log(cluster.name, cluster.error?.code ?? "up");
 * ```
 */
export async function listClusters(options: CoreOptions): Promise<ListClustersResult> {
  const clusters = await Promise.all(
    options.fleet.config.clusters.map(async (cluster) => {
      const { docker, error } = await readDockerInfo(cluster, options);
      // The documented fields first, in their order; where the cluster came from after them.
      return {
        ...clusterFields(cluster),
        docker,
        source: cluster.source,
        ...(error ? { error } : {}),
      };
    }),
  );
  return { clusters };
}

/**
 * One cluster by id or name, with its protocol, whether it uses TLS, its engine information,
 * and which engine it is. An engine that fails gives `docker: {}` and an `error`, not a failed
 * call.
 * @example
 * ```ts
 * const { cluster, docker } = await inspectCluster("prod", { fleet }); // GET /detail/cluster/prod
 * ```
 */
export async function inspectCluster(
  ref: string,
  options: CoreOptions,
): Promise<InspectClusterResult> {
  const cluster = resolveCluster(ref, options);
  const { docker, engine, error } = await readDockerInfo(cluster, options);
  return {
    cluster: {
      ...clusterFields(cluster),
      protocol: cluster.protocol,
      tls: cluster.protocol === "https",
      source: cluster.source,
      ...(cluster.context ? { context: cluster.context } : {}),
    },
    docker,
    ...(engine ? { engine } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * The engine's name as `docker version` heads its part: the component named `Engine` is Docker's
 * (`Docker Engine`), Podman's is `Podman Engine`; an engine that lists no components (API before
 * 1.35) is Docker's.
 */
export function engineName(version: EngineVersion): EngineName {
  const components = Array.isArray(version.Components)
    ? (version.Components as Array<{ Name?: unknown; Version?: unknown }>)
    : [];
  const engine = components.find(
    (component) => typeof component.Name === "string" && /(?:^| )Engine$/.test(component.Name),
  );
  const name =
    typeof engine?.Name === "string" && engine.Name !== "Engine" ? engine.Name : "Docker Engine";
  return {
    name,
    version: typeof engine?.Version === "string" ? engine.Version : (version.Version ?? ""),
  };
}

/**
 * The fields of a cluster record (docs/http-interface.md, "GET /list/cluster"): `host` the host
 * name, IP or socket path; never key material or key paths.
 */
function clusterFields(cluster: ClusterConfig) {
  return {
    id: cluster.id,
    name: cluster.name,
    fullname: cluster.icon ? `${cluster.icon} ${cluster.name}` : cluster.name,
    icon: cluster.icon,
    host: endpointHost(cluster),
    port: cluster.port,
  };
}

/**
 * `GET /info` and `GET /volumes` of one engine, side by side under one time limit (one call of
 * the engine's, however many routes and scrapes read it), and its name from `/version`, which is
 * read once per connection (engine-version.ts): two engine requests per engine, not three.
 */
async function readDockerInfo(
  cluster: ClusterConfig,
  options: CoreOptions,
): Promise<{ docker: DockerInfo; engine?: EngineName; error?: ErrorBody }> {
  try {
    const [docker, version] = await Promise.all([
      callEngine(
        cluster,
        async (engine, signal) => {
          const [infoBody, volumes] = await Promise.all([
            engine.get("/info", signal),
            engine.get("/volumes", signal),
          ]);
          const volumeList = expectBody<{ Volumes?: unknown[] | null }>(
            volumes,
            "object",
            cluster,
          ).Volumes;
          return {
            ...expectBody<DockerInfo>(infoBody, "object", cluster),
            Volumes: volumeList?.length ?? 0,
          };
        },
        { ...options, read: { kind: "info" } },
      ),
      readEngineVersion(cluster, options),
    ]);
    return { docker, engine: engineName(version) };
  } catch (error) {
    // An engine that failed may come back another (restarted, upgraded): its name is read again.
    forgetEngineFacts(options.fleet.slot(cluster));
    return { docker: {}, error: translateEngineError(error, cluster).toJSON() };
  }
}

/** Body of `docklens config`: which config was used, and where each cluster came from. */
export interface DescribeConfigResult {
  /** The config file used; `null` when none was. */
  file: string | null;
  /** Why no file was used. */
  reason?: string;
  clusters: Array<
    Omit<ClusterRecord, "docker" | "error" | "fullname" | "icon"> & {
      protocol: ClusterConfig["protocol"];
      context?: string;
      /** A node's cluster: how the node is reached, its URL or the NATS servers (`nats://…`). */
      via?: string;
    }
  >;
  /** What was skipped (a docker context docklens cannot use). */
  warnings: string[];
  /** The tokens of `serve` that see only some clusters: names and globs, never values or hashes. */
  tokens: Array<{ name: string; clusters: string[] }>;
  /** The alert rules (with their defaults) and receivers, each target described, never in clear. */
  alerts?: {
    url?: string;
    receivers: Array<{ name: string; kind: string; target: string }>;
    rules: AlertRule[];
  };
}

/**
 * Which config docklens uses, every cluster with its source, and the scoped tokens of `serve`
 * with their globs (never their values or hashes), so that a user can tell why
 * docklens sees what it sees; no engine is asked.
 * @example
 * ```ts
 * const { file, clusters } = describeConfig({ fleet }); // docklens config --json
 * console.log(file, clusters.map((cluster) => `${cluster.name} (${cluster.source})`));
 * ```
 */
export function describeConfig(options: CoreOptions): DescribeConfigResult {
  const { config } = options.fleet;
  return {
    file: config.source,
    ...(config.noFileReason ? { reason: config.noFileReason } : {}),
    clusters: config.clusters.map((cluster) => ({
      id: cluster.id,
      name: cluster.name,
      host: endpointHost(cluster),
      port: cluster.port,
      protocol: cluster.protocol,
      source: cluster.source,
      ...(cluster.context ? { context: cluster.context } : {}),
      ...(cluster.node ? { via: cluster.node.via } : {}),
    })),
    warnings: config.warnings,
    tokens: (config.tokens ?? []).map(({ name, clusters }) => ({ name, clusters })),
    ...(config.alerts
      ? {
          alerts: {
            ...(config.alerts.url ? { url: config.alerts.url } : {}),
            receivers: config.alerts.receivers.map(({ name, kind, target }) => ({
              name,
              kind,
              target: describeTarget(target),
            })),
            rules: config.alerts.rules,
          },
        }
      : {}),
  };
}
