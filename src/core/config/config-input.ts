// The config file's shape as written by the user (docs/http-interface.md, "Configuration file"),
// declared, not inferred, so that the published types name no zod type: config-schema.ts checks
// that its schema takes exactly this.
import type { AlertsConfigInput } from "./alerts-schema.ts";
import type { HistoryConfigInput } from "./history-schema.ts";
import type { MetricsConfigInput } from "./metrics-schema.ts";
import type { NatsConfigInput } from "./nats-schema.ts";
import type { NodeConfigInput } from "./nodes-schema.ts";

/** Tuning of engine calls, in a cluster or under `defaults` (docs/http-interface.md, "Time limits"). */
export interface EngineTuningInput {
  /** Time limit of each engine call, 1 to 600000 ms; default 5000. */
  timeoutMs?: number;
  /** Engine calls in flight at once, 1 to 256; default 8. */
  maxConcurrency?: number;
  /** How long a read may be served again, 0 to 600000 ms; default 0. */
  cacheTtlMs?: number;
  /** Time limit of the engine's disk usage (`/system/df`), 1 to 600000 ms; default 60000. */
  diskUsageTimeoutMs?: number;
}

/** A cluster of the config file, as written. */
export interface ClusterConfigInput extends EngineTuningInput {
  /** A positive integer, unique; defaults to the cluster's position + 1. */
  id?: number;
  /** Letters, digits, `_`, `.` or `-`, starting with a letter or digit, not only digits; unique. */
  name: string;
  /** Shown before the name; at most 16 characters, default 🐳. */
  icon?: string;
  /** A host name or IP address, a socket path, or a `tcp://`, `unix://` or `ssh://` URL. */
  host: string;
  /** Default 2375, 2376 with `tls`, 22 over `ssh://`, 0 for a socket. */
  port?: number;
  /** Paths of PEM files; the engine is reached over TLS. */
  tls?: { ca?: string; cert?: string; key?: string };
  /** The SSH user (else the one of `host`) and private key file (else the SSH agent). */
  ssh?: { username?: string; privateKey?: string };
}

/** A token of `serve` that sees only some clusters (docs/http-interface.md, "Scoped tokens"). */
export interface TokenInput {
  name: string;
  /** The token's SHA-256, 64 hex digits (`docklens token hash` makes it); or `env`. */
  sha256?: string;
  /** The environment variable holding the token; or `sha256`. */
  env?: string;
  /** Cluster names, or globs of names with `*` and `?`; at least one. */
  clusters: string[];
}

/**
 * The config file's shape, as written by the user (docs/http-interface.md, "Configuration file").
 */
export interface DocklensConfigInput {
  /**
   * At least one; none for the clusters docklens finds with no config file (`local`, and as
   * `contexts` and `discover` say, every other docker context and Podman).
   */
  clusters?: ClusterConfigInput[];
  /** The tuning of every cluster that sets none of its own. */
  defaults?: EngineTuningInput;
  /** Show sensitive environment values in container detail (docs/http-interface.md, "Secrets"). */
  showSecrets?: boolean;
  /**
   * The most containers merged logs or stats of many may follow (docs/http-interface.md,
   * "Selections"); 100 when unset.
   */
  maxSelection?: number;
  /** Add every docker CLI context to the clusters (with no `clusters`, beside `local`). */
  contexts?: boolean;
  /**
   * Add a local Podman socket that exists to the clusters
   * (docs/http-interface.md, "Where clusters come from").
   */
  discover?: boolean;
  /** Tokens of `serve` that see only some clusters. */
  tokens?: TokenInput[];
  /**
   * Host names `serve` without a token answers beside loopback, addresses and its `--host`
   * (docs/http-interface.md, "Without a token"); `.example.com` for every name under it.
   */
  allowedHosts?: string[];
  /** Streams one client of `serve` may hold open (docs/http-interface.md, "Streams"); 64 unset. */
  maxStreams?: number;
  /** Alert receivers and rules (docs/guide/alerts.md). */
  alerts?: AlertsConfigInput;
  /** Where to find nodes over NATS (docs/guide/nats.md). */
  nats?: NatsConfigInput;
  /** Other docklens serves, their clusters shown as `<node>.<cluster>` (docs/guide/nodes.md). */
  nodes?: NodeConfigInput[];
  /** What serve and node record (D26): `false` for nothing; recorded with the defaults unset. */
  history?: HistoryConfigInput;
  /** What `/metrics` serves of each container (docs/guide/monitoring.md); on, up to 2000, unset. */
  metrics?: MetricsConfigInput;
}
