import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_TUNING,
  toClusterConfig,
  type ClusterConfig,
  type ClusterInput,
  type EngineTuning,
  type SkippedContext,
} from "./cluster-config.ts";
import { readContextStore, type ContextStore, type DockerContext } from "./docker-contexts.ts";
import { parseEndpoint } from "./endpoint.ts";
import { DocklensError } from "../errors.ts";
import { checkKeyFiles } from "./key-files.ts";
import { NAME_PATTERN } from "../names.ts";

/** Clusters found on this machine, and what was skipped on the way, one line each. */
export interface FoundClusters {
  clusters: ClusterConfig[];
  warnings: string[];
  /** The contexts among `warnings` that docklens cannot use, by name. */
  skipped: SkippedContext[];
}

/** What discovery looks for beside `local`: the other docker contexts, and a Podman socket. */
export interface DiscoverOptions {
  contexts: boolean;
  discover: boolean;
}

/** Where Podman listens: rootful first, then the user's own service. */
function podmanSockets(env: NodeJS.ProcessEnv): string[] {
  return [
    "/run/podman/podman.sock",
    ...(env.XDG_RUNTIME_DIR ? [join(env.XDG_RUNTIME_DIR, "podman", "podman.sock")] : []),
  ];
}

/**
 * Every engine this machine already knows, with no config file (in this order, ids from 1):
 * `local`, the engine the docker CLI would use now (`DOCKER_HOST`, else the context
 * `DOCKER_CONTEXT` names, else `currentContext`, else `/var/run/docker.sock`); then every other
 * docker context, by name, named after it; then `podman`, for a Podman socket that exists.
 * Nothing is asked of any engine: a directory read, a few files and a `stat` per socket.
 * `options` leave out the other contexts or Podman (a config file without `clusters`).
 */
export function discoverClusters(
  env: NodeJS.ProcessEnv,
  options: DiscoverOptions = { contexts: true, discover: true },
): FoundClusters {
  const store = readContextStore(env);
  const warnings = options.contexts ? [...store.warnings] : [];
  const skipped: SkippedContext[] = [];
  // The docker CLI's own order: DOCKER_HOST wins over DOCKER_CONTEXT, which wins over the config file.
  const chosen = env.DOCKER_HOST ? "default" : env.DOCKER_CONTEXT || store.current;
  const current =
    chosen === "default" ? undefined : store.contexts.find((context) => context.name === chosen);
  if (chosen !== "default" && !current) {
    const where = env.DOCKER_CONTEXT
      ? "DOCKER_CONTEXT"
      : `currentContext in ${join(store.dir, "config.json")}`;
    throw new DocklensError(
      "INVALID_CONFIG",
      `${where} names the docker context ${JSON.stringify(chosen)}, which does not exist ` +
        "(docker context ls lists them)",
    );
  }
  const local = current ? fromContext(current, { id: 1, name: "local" }) : defaultEngine(env);
  if (typeof local === "string")
    throw new DocklensError("INVALID_CONFIG", `docker context ${JSON.stringify(chosen)}: ${local}`);
  const clusters = [local];
  const others = options.contexts ? store.contexts.filter((context) => context !== current) : [];
  for (const reserved of others.filter(
    (context) => context.name === "local" || context.name === "podman",
  )) {
    warnings.push(
      `docker context ${JSON.stringify(reserved.name)} skipped: ` +
        "with no config file, docklens names a cluster so itself",
    );
  }
  clusters.push(...contextClusters(others, new Set(["local", "podman"]), 2, skipped));
  const podman =
    options.discover &&
    podmanCluster(env, clusters.length + 1, new Set(clusters.map((cluster) => cluster.socketPath)));
  if (podman) clusters.push(podman);
  return { clusters, warnings: [...warnings, ...skipped.map(({ warning }) => warning)], skipped };
}

/**
 * What a config file's `contexts: true` and `discover: true` add beside its own clusters: every
 * docker context and a Podman socket that exists, with ids after the file's highest. The file's
 * own names win on a clash.
 */
export function discoverMore(
  env: NodeJS.ProcessEnv,
  own: readonly ClusterConfig[],
  options: DiscoverOptions,
): FoundClusters {
  const taken = new Set(own.map((cluster) => cluster.name));
  let next = Math.max(0, ...own.map((cluster) => cluster.id)) + 1;
  const warnings: string[] = [];
  const skipped: SkippedContext[] = [];
  const clusters: ClusterConfig[] = [];
  if (options.contexts) {
    const store: ContextStore = readContextStore(env);
    warnings.push(...store.warnings);
    clusters.push(...contextClusters(store.contexts, taken, next, skipped));
    warnings.push(...skipped.map(({ warning }) => warning));
    next += clusters.length;
  }
  const all = [...own, ...clusters];
  // A context already named podman (Podman's own set-up makes one) or on its socket is that engine.
  if (options.discover && !all.some((cluster) => cluster.name === "podman")) {
    const podman = podmanCluster(env, next, new Set(all.map((cluster) => cluster.socketPath)));
    if (podman) clusters.push(podman);
  }
  return { clusters, warnings, skipped };
}

/** Contexts as clusters named after them, ids from `firstId`; those docklens cannot use go to `skipped`. */
function contextClusters(
  contexts: readonly DockerContext[],
  taken: ReadonlySet<string>,
  firstId: number,
  skipped: SkippedContext[],
): ClusterConfig[] {
  const clusters: ClusterConfig[] = [];
  for (const context of contexts) {
    if (taken.has(context.name)) continue;
    const cluster = fromContext(context, { id: firstId + clusters.length, name: context.name });
    if (typeof cluster === "string")
      skipped.push({
        context: context.name,
        warning: `docker context ${JSON.stringify(context.name)} skipped: ${cluster}`,
      });
    else clusters.push(cluster);
  }
  return clusters;
}

/** A context as a cluster, or why docklens cannot use it. */
function fromContext(
  context: DockerContext,
  as: { id: number; name: string },
): ClusterConfig | string {
  if (!NAME_PATTERN.test(as.name) || /^\d+$/.test(as.name))
    return "a name docklens cannot take (letters, digits, '_', '.' or '-', and not only digits)";
  if (context.host.startsWith("npipe:"))
    return "npipe hosts are Windows named pipes, which docklens cannot reach";
  const tls =
    context.tls || context.skipTLSVerify
      ? { ...context.tls, ...(context.skipTLSVerify ? { insecure: true } : {}) }
      : undefined;
  if (tls) {
    const problem = checkKeyFiles({ tls });
    if (problem) return `its ${problem.field.replace("tls.", "")}.pem: ${problem.message}`;
  }
  return cluster({
    ...as,
    host: context.host,
    source: "context",
    context: context.name,
    ...(tls ? { tls } : {}),
  });
}

/**
 * The engine of the docker CLI's default context: `DOCKER_HOST`, else the default socket; with
 * TLS as the docker CLI reads its variables: `DOCKER_TLS_VERIFY` (any value) for TLS that checks
 * the engine, `DOCKER_TLS` for TLS that does not; the files `ca.pem`, `cert.pem` and `key.pem` of
 * `DOCKER_CERT_PATH`, else of the docker config dir, those that exist.
 */
function defaultEngine(env: NodeJS.ProcessEnv): ClusterConfig {
  const verify = Boolean(env.DOCKER_TLS_VERIFY);
  // With TLS asked for and no DOCKER_HOST, the docker CLI goes to the TLS port of this host.
  const host =
    env.DOCKER_HOST || (verify || env.DOCKER_TLS ? "tcp://localhost:2376" : "/var/run/docker.sock");
  let tls: ClusterInput["tls"];
  if (verify || env.DOCKER_TLS) {
    const certPath =
      env.DOCKER_CERT_PATH || env.DOCKER_CONFIG || join(env.HOME || homedir(), ".docker");
    const files = (["ca", "cert", "key"] as const).filter((file) =>
      exists(join(certPath, `${file}.pem`)),
    );
    tls = {
      ...Object.fromEntries(files.map((file) => [file, join(certPath, `${file}.pem`)])),
      ...(verify ? {} : { insecure: true }),
    };
  }
  if (tls) {
    const problem = checkKeyFiles({ tls });
    if (problem)
      throw new DocklensError(
        "INVALID_CONFIG",
        `DOCKER_CERT_PATH: ${problem.field.replace("tls.", "")}.pem: ${problem.message}`,
      );
  }
  const made = cluster({ id: 1, name: "local", host, source: "default", ...(tls ? { tls } : {}) });
  if (typeof made === "string")
    throw new DocklensError("INVALID_CONFIG", `DOCKER_HOST ${JSON.stringify(host)}: ${made}`);
  return made;
}

/**
 * `podman` on the first Podman socket that exists (one `stat` each), unless it is already a
 * cluster's: compared through symbolic links, since podman-docker links the docker socket to it.
 */
function podmanCluster(
  env: NodeJS.ProcessEnv,
  id: number,
  known: ReadonlySet<string | undefined>,
): ClusterConfig | undefined {
  const real = new Set(
    [...known].filter((path): path is string => path !== undefined).map(realPath),
  );
  const socket = podmanSockets(env).find((path) => exists(path) && !real.has(realPath(path)));
  if (!socket) return undefined;
  const made = cluster({ id, name: "podman", host: socket, source: "discovered" });
  return typeof made === "string" ? undefined : made;
}

/** A found cluster with the default tuning, or why its host cannot be used. */
function cluster(
  input: ClusterInput,
  tuning: EngineTuning = DEFAULT_TUNING,
): ClusterConfig | string {
  try {
    return toClusterConfig(
      input,
      parseEndpoint(input.host, undefined, input.tls !== undefined),
      tuning,
    );
  } catch (error) {
    return (error as Error).message;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
