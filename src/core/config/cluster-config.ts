import type { AlertsConfig } from "./alerts-schema.ts";
import type { NodeConfig } from "./nodes-schema.ts";
import type { ErrorBody } from "../errors.ts";
import type { Endpoint } from "./endpoint.ts";
import type { HistoryConfig } from "./history-schema.ts";
import type { MetricsConfig } from "./metrics-schema.ts";
import type { NatsConfig } from "./nats-schema.ts";
import type { NatsConnection } from "@nats-io/transport-node";

/**
 * Time limit of an engine call when neither the cluster nor `defaults` sets one
 * (docs/http-interface.md, "Time limits").
 */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Tuning of the engine layer, per cluster or under `defaults`. */
export interface EngineTuning {
  /** Time limit of each engine call (docs/http-interface.md, "Time limits"). */
  timeoutMs: number;
  /** Engine calls in flight at once; more wait their turn (within their time limit). */
  maxConcurrency: number;
  /** How long a read may be served again after it came; 0: only identical reads in flight share it. */
  cacheTtlMs: number;
  /** Time limit of `/system/df`, which walks every layer and volume: slow on big hosts. */
  diskUsageTimeoutMs: number;
}

/** The tuning of a cluster that sets none. */
export const DEFAULT_TUNING: EngineTuning = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxConcurrency: 8,
  cacheTtlMs: 0,
  diskUsageTimeoutMs: 60_000,
};
/** Icon of a cluster that sets none (docs/http-interface.md, "Configuration file"). */
export const DEFAULT_ICON = "🐳";

/**
 * Where a cluster came from: the config file's `clusters`, a docker CLI context, a local
 * socket docklens found (Podman), or the engine the docker CLI would use with no context.
 */
export type ClusterSource = "config" | "context" | "discovered" | "default" | "node";

/**
 * How a hub reaches a cluster of a node (docs/guide/nodes.md): the node, and the cluster's name
 * there. Its state (`seen`, `error`) changes as the hub hears from the node
 * (core/node/node-clusters.ts).
 */
export interface NodeLink {
  /** The node's name (`edge`): its clusters are `edge.<cluster>`. */
  name: string;
  /** How the node is reached, for messages: its URL. */
  via: string;
  /** The node's serve, over HTTP(S). */
  http?: NodeConfig;
  /** The hub's NATS connection, for a node found there (core/node/nats-nodes.ts). */
  nats?: NatsConnection;
  /** The cluster's name at the node; unset for the one entry of a node never reached. */
  cluster?: string;
  /** When the hub last heard from the node (ISO 8601). */
  seen?: string;
  /** Why the node cannot be reached now. */
  error?: ErrorBody;
  /** Told that a read found the node gone, to mark its clusters down at once (nats-nodes.ts). */
  lost?: (error: ErrorBody) => void;
}

/** One cluster, with every default applied and its endpoint parsed. */
export interface ClusterConfig extends Endpoint, EngineTuning {
  id: number;
  name: string;
  icon: string;
  /** The `host` exactly as configured. */
  host: string;
  /** Paths of TLS files; present when the engine is reached over TLS. */
  tls?: {
    ca?: string;
    cert?: string;
    key?: string;
    /** Skip the engine certificate check (a context's SkipTLSVerify). */ insecure?: boolean;
  };
  ssh?: { username?: string; privateKey?: string };
  source: ClusterSource;
  /** The docker context it came from, for `source: "context"`. */
  context?: string;
  /** The node it lives on, for `source: "node"`: its engine reads go there. */
  node?: NodeLink;
}

/** A loaded, validated configuration. */
export interface DocklensConfig {
  clusters: ClusterConfig[];
  showSecrets: boolean;
  /** The most containers a selection may hold (docs/http-interface.md, "Selections"); 100 unset. */
  maxSelection?: number;
  /** The file it was read from; `null` when none was found. */
  source: string | null;
  /** Why no file was used, when none was (for `docklens config`). */
  noFileReason?: string;
  /**
   * What was skipped on the way (a docker context docklens cannot use) and what looks wrong (a
   * token glob that matches no cluster), one line each: for `docklens config`, `serve` and the
   * commands over every cluster.
   */
  warnings: string[];
  /** The docker contexts among `warnings` that docklens cannot use: naming one says why. */
  skipped?: SkippedContext[];
  /** Tokens of `serve` that see only some clusters; none without a config file. */
  tokens?: ScopedToken[];
  /** Host names `serve` without a token answers beside its own (docs/http-interface.md, "Without a token"). */
  allowedHosts?: string[];
  /** Streams one client of `serve` may hold open (docs/http-interface.md, "Streams"); 64 unset. */
  maxStreams?: number;
  /** Alert receivers and rules (docs/guide/alerts.md); none unset. */
  alerts?: AlertsConfig;
  /** Where to find nodes over NATS (docs/guide/nats.md); none unset. */
  nats?: NatsConfig;
  /** Other docklens serves whose clusters this one shows (docs/guide/nodes.md); none unset. */
  nodes?: NodeConfig[];
  /** What serve and node record (D26); unset, as recorded by default. */
  history?: HistoryConfig;
  /** What `/metrics` serves of each container; unset, the defaults. */
  metrics?: MetricsConfig;
}

/** A docker context docklens cannot use, and its warning line. */
export interface SkippedContext {
  context: string;
  warning: string;
}

/** A token of `serve` that sees only the clusters its globs match (`prod-*`). */
export interface ScopedToken {
  name: string;
  /** The token's SHA-256, lower-case hex; or `env`, the variable holding the token. */
  sha256?: string;
  env?: string;
  clusters: string[];
}

/**
 * A token's glob of cluster names (`prod-*`) as a pattern of whole names: `*` any run of
 * characters, `?` one.
 */
export function clusterGlob(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\-]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );
}

/**
 * Whether `ref` (a name or glob: `edge.web`, `edge.*`) names a cluster of one of `nodes`, which
 * the hub knows only once that node answers: no typo for a cluster missing now.
 */
export function namesNodeCluster(ref: string, nodes: ReadonlyArray<{ name: string }>): boolean {
  return nodes.some((node) => ref.startsWith(`${node.name}.`));
}

/** What a cluster is made from: as written (validated) or as found, before defaults. */
export type ClusterInput = {
  id: number;
  name: string;
  icon?: string;
  host: string;
  tls?: ClusterConfig["tls"];
  ssh?: ClusterConfig["ssh"];
  source?: ClusterSource;
  context?: string;
} & Partial<EngineTuning>;

/**
 * A cluster plus its parsed endpoint, with the defaults for what it leaves out
 * (docs/http-interface.md, "Configuration file"); `source` defaults to `config`.
 */
export function toClusterConfig(
  cluster: ClusterInput,
  endpoint: Endpoint,
  defaults: EngineTuning,
): ClusterConfig {
  return {
    ...endpoint,
    id: cluster.id,
    name: cluster.name,
    icon: cluster.icon ?? DEFAULT_ICON,
    host: cluster.host,
    timeoutMs: cluster.timeoutMs ?? defaults.timeoutMs,
    maxConcurrency: cluster.maxConcurrency ?? defaults.maxConcurrency,
    cacheTtlMs: cluster.cacheTtlMs ?? defaults.cacheTtlMs,
    diskUsageTimeoutMs: cluster.diskUsageTimeoutMs ?? defaults.diskUsageTimeoutMs,
    ...(cluster.tls ? { tls: cluster.tls } : {}),
    ...(cluster.ssh ? { ssh: cluster.ssh } : {}),
    source: cluster.source ?? "config",
    ...(cluster.context ? { context: cluster.context } : {}),
  };
}
