import leven from "leven";
// zod/mini, not zod: the same checks and messages as functions, so that the bundle keeps only
// those this schema uses. Classic zod's methods bring the whole library: its chunk (89 kB) cost a
// run with a config file 9 to 12 ms (Node 22 to 20, the least of 21 runs), this one (28 kB) 5 to 6.
import { z } from "zod/mini";
import {
  clusterGlob,
  DEFAULT_TUNING,
  toClusterConfig,
  type ClusterConfig,
  type DocklensConfig,
  type ScopedToken,
} from "./cluster-config.ts";
import { discoverClusters, discoverMore } from "./discovery.ts";
import { parseEndpoint } from "./endpoint.ts";
import { DocklensError } from "../errors.ts";
import { checkKeyFiles } from "./key-files.ts";
import { CLUSTER_GLOB_PATTERN, MAX_NAME_LENGTH, NAME_PATTERN } from "../names.ts";
import { alertsSchema, toAlertsConfig, type AlertsConfigInput } from "./alerts-schema.ts";
import { natsSchema, type NatsConfigInput } from "./nats-schema.ts";
import { nodesSchema, toNodeConfigs, type NodeConfigInput } from "./nodes-schema.ts";

const integer = z.int({
  error: (issue) => (issue.input === undefined ? "required" : "expected an integer"),
});
const text = z.string({
  error: (issue) => (issue.input === undefined ? "required" : "expected a string"),
});
// Shared where the same field recurs: each zod schema made costs a run with a config file.
const optionalText = z.optional(text);
const flag = z.optional(z.boolean({ error: "expected true or false" }));
const timeoutMs = integer.check(
  z.minimum(1, "expected at least 1 ms"),
  z.maximum(600_000, "expected at most 600000 ms"),
);
const tuning = {
  timeoutMs: z.optional(timeoutMs),
  diskUsageTimeoutMs: z.optional(timeoutMs),
  maxConcurrency: z.optional(
    integer.check(z.minimum(1, "expected at least 1"), z.maximum(256, "expected at most 256")),
  ),
  cacheTtlMs: z.optional(
    integer.check(
      z.minimum(0, "expected 0 or more ms"),
      z.maximum(600_000, "expected at most 600000 ms"),
    ),
  ),
};
const name = text.check(
  // Before the pattern: a long name is refused for its length, whatever its characters.
  z.maxLength(MAX_NAME_LENGTH, {
    error: (issue) =>
      `expected at most ${MAX_NAME_LENGTH} characters, not ${(issue.input as string).length}`,
  }),
  z.regex(
    NAME_PATTERN,
    "expected letters, digits, '_', '.' or '-', starting with a letter or digit",
  ),
);

/** `message` for a value that is not an object (`tls: true`); zod's own words for the rest. */
function notAnObject(message: string) {
  return (issue: { code?: string }) => (issue.code === "invalid_type" ? message : undefined);
}

const clusterSchema = z
  .strictObject({
    id: z.optional(integer.check(z.minimum(1, "expected a positive integer"))),
    name: name.check(
      z.refine(
        (value) => !/^\d+$/.test(value),
        "must not be made only of digits: a reference made of digits means a cluster id",
      ),
    ),
    icon: z.optional(text.check(z.maxLength(16, "expected at most 16 characters"))),
    host: text.check(z.minLength(1, "required")),
    port: z.optional(
      integer.check(
        z.minimum(1, "expected a port from 1 to 65535"),
        z.maximum(65535, "expected a port from 1 to 65535"),
      ),
    ),
    tls: z.optional(
      z.strictObject(
        { ca: optionalText, cert: optionalText, key: optionalText },
        {
          error: notAnObject(
            "expected an object of PEM file paths, { ca, cert, key }, each optional " +
              "({} for TLS with the system's CAs)",
          ),
        },
      ),
    ),
    ssh: z.optional(
      z.strictObject(
        { username: optionalText, privateKey: optionalText },
        { error: notAnObject("expected an object, { username, privateKey }, each optional") },
      ),
    ),
    ...tuning,
  })
  .check(
    z.superRefine((cluster, ctx) => {
      try {
        parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined);
      } catch (error) {
        ctx.addIssue({ code: "custom", path: ["host"], message: (error as Error).message });
      }
    }),
  );

/** A token of `serve` that sees only some clusters: its SHA-256 or the variable holding it, never the token itself. */
const tokenSchema = z
  .strictObject({
    name,
    sha256: z.optional(
      text.check(
        z.regex(
          /^[a-fA-F0-9]{64}$/,
          "expected the token's SHA-256, 64 hex digits (docklens token hash makes it)",
        ),
      ),
    ),
    env: z.optional(
      text.check(
        z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected the name of an environment variable"),
      ),
    ),
    clusters: z
      .array(
        text.check(
          z.regex(CLUSTER_GLOB_PATTERN, "expected a cluster name, or a glob of names with * and ?"),
        ),
        { error: "expected an array of cluster names or globs" },
      )
      .check(z.minLength(1, "expected at least one cluster name or glob")),
  })
  .check(
    z.refine((token) => (token.sha256 === undefined) !== (token.env === undefined), {
      message: "expected either sha256 or env, not both and not neither",
    }),
  );

const configSchema = z
  .strictObject(
    {
      clusters: z.optional(
        z
          .array(clusterSchema, { error: "expected an array of clusters" })
          .check(z.minLength(1, "expected at least one cluster")),
      ),
      defaults: z.optional(z.strictObject(tuning)),
      showSecrets: flag,
      maxSelection: z.optional(
        integer.check(
          z.minimum(1, "expected at least 1"),
          z.maximum(10_000, "expected at most 10000"),
        ),
      ),
      contexts: flag,
      discover: flag,
      tokens: z.optional(z.array(tokenSchema, { error: "expected an array of tokens" })),
      // Checked where serve uses them (server/exposure.ts), which says what a host name is.
      allowedHosts: z.optional(z.array(text, { error: "expected an array of host names" })),
      maxStreams: z.optional(
        integer.check(
          z.minimum(1, "expected at least 1"),
          z.maximum(10_000, "expected at most 10000"),
        ),
      ),
      alerts: z.optional(alertsSchema),
      nats: z.optional(natsSchema),
      nodes: z.optional(nodesSchema),
    },
    { error: "expected an object with a `clusters` array" },
  )
  .check(
    z.superRefine((config, ctx) => {
      // Discovery alone (zero config, plus tokens, say) needs no clusters of the file's own.
      if (
        !config.clusters &&
        !config.contexts &&
        !config.discover &&
        !config.nodes?.length &&
        !config.nats
      )
        ctx.addIssue({
          code: "custom",
          path: ["clusters"],
          message: "required, unless contexts or discover is true, or nodes or nats are named",
        });
      const names = new Set<string>();
      const ids = new Set<number>();
      config.clusters?.forEach((cluster, index) => {
        const id = cluster.id ?? index + 1;
        if (names.has(cluster.name))
          ctx.addIssue({
            code: "custom",
            path: ["clusters", index, "name"],
            message: `duplicate name "${cluster.name}"`,
          });
        if (ids.has(id))
          ctx.addIssue({
            code: "custom",
            path: ["clusters", index, "id"],
            message: `duplicate id ${id}`,
          });
        names.add(cluster.name);
        ids.add(id);
      });
      const tokens = new Set<string>();
      config.tokens?.forEach((token, index) => {
        if (tokens.has(token.name))
          ctx.addIssue({
            code: "custom",
            path: ["tokens", index, "name"],
            message: `duplicate name "${token.name}"`,
          });
        tokens.add(token.name);
      });
    }),
  );

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
  /** Alert receivers and rules (README, "Alerts"). */
  alerts?: AlertsConfigInput;
  /** Where to find nodes over NATS (README, "Nodes over NATS"). */
  nats?: NatsConfigInput;
  /** Other docklens serves whose clusters this one shows as `<node>.<cluster>` (README, "Nodes"). */
  nodes?: NodeConfigInput[];
}

/** `true` when `A` and `B` are the same type, property by property. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Compiles only while the schema takes exactly {@link DocklensConfigInput}: a field added to one
 * and not the other, or typed otherwise, fails the type check here.
 */
export type SchemaTakesConfigInput = Assert<
  Same<z.input<typeof configSchema>, DocklensConfigInput>
>;
type Assert<T extends true> = T;

/**
 * Validate a parsed config object and apply its defaults
 * (docs/http-interface.md, "Configuration file"). Throws `INVALID_CONFIG` naming `source` and
 * the first bad field, e.g. `clusters[1].port: expected an integer`.
 * @example
 * ```ts
 * const input: DocklensConfigInput = { clusters: [{ name: "prod", host: "tcp://10.0.0.5:2375" }] };
 * const config = normalizeConfig(input, "inline");
 * ```
 */
export function normalizeConfig(
  input: unknown,
  source: string | null,
  env: NodeJS.ProcessEnv = process.env,
): DocklensConfig {
  const fail = (path: ReadonlyArray<PropertyKey>, message: string): never => {
    const where = namedRule(formatPath(path), path, input);
    throw new DocklensError(
      "INVALID_CONFIG",
      `invalid config ${source ?? ""}: ${where ? `${where}: ` : ""}${message}`,
    );
  };
  // zod/mini leaves the messages no schema sets to a locale: the English one classic zod sets
  // (`clusters[0].tls: Invalid input: expected object, received string`), for this parse only.
  // Parsed once per run: zod's compiled fast path would cost a one-shot command more than it saves.
  const parsed = configSchema.safeParse(input, {
    error: z.locales.en().localeError,
    jitless: true,
  });
  if (!parsed.success) {
    // A misspelt key explains the "required" beside it: report it first, with the key meant.
    const issues = parsed.error.issues;
    const issue = issues.find((candidate) => candidate.code === "unrecognized_keys") ?? issues[0]!;
    if (issue.code !== "unrecognized_keys") return fail(issue.path, issue.message);
    const known = Object.keys(shapeAt(issue.path));
    const unknown = issue.keys.map((key) => {
      const meant = suggest(key, known);
      return `unknown key ${JSON.stringify(key)}${meant ? ` (did you mean ${JSON.stringify(meant)}?)` : ""}`;
    });
    return fail(issue.path, unknown.join(", "));
  }
  const { clusters, defaults, showSecrets, maxSelection, contexts, discover, tokens } = parsed.data;
  const { allowedHosts, maxStreams, alerts, nodes, nats } = parsed.data;
  for (const [key, list] of [
    ["clusters", clusters],
    ["nodes", nodes],
  ] as const)
    list?.forEach((entry, index) => {
      const problem = checkKeyFiles(entry);
      if (problem) fail([key, index, ...problem.field.split(".")], problem.message);
    });
  const tuning = { ...DEFAULT_TUNING, ...defaults };
  const own = (clusters ?? []).map((cluster, index) =>
    toClusterConfig(
      { ...cluster, id: cluster.id ?? index + 1 },
      parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined),
      tuning,
    ),
  );
  const asked = { contexts: contexts ?? false, discover: discover ?? false };
  const found = clusters ? discoverMore(env, own, asked) : discoverClusters(env, asked);
  const all = [...own, ...found.clusters.map((cluster) => ({ ...cluster, ...tuning }))];
  const scoped = (tokens ?? []).map(({ name, sha256, env: variable, clusters: globs }) => ({
    name,
    clusters: globs,
    ...(sha256 ? { sha256: sha256.toLowerCase() } : { env: variable! }),
  }));
  return {
    source,
    showSecrets: showSecrets ?? false,
    ...(maxSelection === undefined ? {} : { maxSelection }),
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(maxStreams === undefined ? {} : { maxStreams }),
    ...(alerts ? { alerts: toAlertsConfig(alerts) } : {}),
    ...(nats ? { nats } : {}),
    ...(nodes?.length ? { nodes: toNodeConfigs(nodes) } : {}),
    clusters: all,
    warnings: [...found.warnings, ...unmatchedGlobs(scoped, all, nodes ?? [])],
    ...(found.skipped.length ? { skipped: found.skipped } : {}),
    tokens: scoped,
  };
}

/** One warning per token glob that matches no cluster: most likely a typo, which hides a cluster. */
function unmatchedGlobs(
  tokens: readonly ScopedToken[],
  clusters: readonly ClusterConfig[],
  nodes: readonly NodeConfigInput[],
) {
  // A node's clusters are known once it answers: `edge.*` is no typo when a node is `edge`.
  const ofNode = (glob: string) => nodes.some((node) => glob.startsWith(`${node.name}.`));
  return tokens.flatMap((token) =>
    token.clusters
      .filter((glob) => !ofNode(glob))
      .filter((glob) => !clusters.some((cluster) => clusterGlob(glob).test(cluster.name)))
      .map(
        (glob) =>
          `token ${JSON.stringify(token.name)}: its clusters glob ${JSON.stringify(glob)} matches no cluster`,
      ),
  );
}

/** The keys the config allows at `path` (an object inside it), read from the schema itself. */
function shapeAt(path: ReadonlyArray<PropertyKey>): Record<string, unknown> {
  let schema: z.ZodMiniType = configSchema;
  for (const part of path) {
    schema = unwrapped(schema);
    if (schema instanceof z.ZodMiniArray) schema = schema.def.element as z.ZodMiniType;
    else if (schema instanceof z.ZodMiniObject)
      schema = schema.shape[String(part)] as z.ZodMiniType;
  }
  schema = unwrapped(schema);
  return schema instanceof z.ZodMiniObject ? schema.shape : {};
}

/** The schema inside an optional one, and inside a lazy one (the alerts' rules, alerts-schema.ts). */
function unwrapped(schema: z.ZodMiniType): z.ZodMiniType {
  if (schema instanceof z.ZodMiniOptional) schema = schema.def.innerType as z.ZodMiniType;
  if (schema instanceof z.ZodMiniLazy) schema = schema.def.getter() as z.ZodMiniType;
  return schema;
}

/** The known key closest to a misspelt one, if it is close enough to be what was meant. */
function suggest(key: string, known: string[]): string | undefined {
  const lower = key.toLowerCase();
  const ranked = known
    .map((name) => ({ name, distance: leven(lower, name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.name : undefined;
}

/** `alerts.rules[0].when` → `alerts.rules[0] (crashed).when`: a rule is known by its name. */
function namedRule(where: string, path: ReadonlyArray<PropertyKey>, input: unknown): string {
  if (path[0] !== "alerts" || path[1] !== "rules" || typeof path[2] !== "number") return where;
  const rules = (input as { alerts?: { rules?: Array<{ name?: unknown }> } }).alerts?.rules;
  const name = rules?.[path[2]]?.name;
  if (typeof name !== "string") return where;
  const head = `alerts.rules[${path[2]}]`;
  return `${head} (${JSON.stringify(name.slice(0, 60))})${where.slice(head.length)}`;
}

/** `["clusters", 1, "port"]` → `clusters[1].port`. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`))
    .join("");
}
