import leven from "leven";
// zod/mini, not zod: the same checks and messages as functions, so that the bundle keeps only
// those this schema uses. Classic zod's methods bring the whole library: its chunk (89 kB) cost a
// run with a config file 9 to 12 ms (Node 22 to 20, the least of 21 runs), this one (28 kB) 5 to 6.
import { z } from "zod/mini";
import {
  clusterGlob,
  namesNodeCluster,
  DEFAULT_TUNING,
  toClusterConfig,
  type ClusterConfig,
  type DocklensConfig,
  type ScopedToken,
} from "./cluster-config.ts";
import { cached } from "./cached.ts";
import { clusterSchema, fields, tokenSchema } from "./cluster-schema.ts";
import type { DocklensConfigInput } from "./config-input.ts";
import { discoverClusters, discoverMore } from "./discovery.ts";
import { parseEndpoint } from "./endpoint.ts";
import { DocklensError } from "../errors.ts";
import { checkKeyFiles } from "./key-files.ts";
import { alertsSchema, toAlertsConfig } from "./alerts-schema.ts";
import { historySchema, toHistoryConfig } from "./history-schema.ts";
import { metricsSchema, toMetricsConfig } from "./metrics-schema.ts";
import { natsSchema } from "./nats-schema.ts";
import { nodesSchema, toNodeConfigs, type NodeConfigInput } from "./nodes-schema.ts";

export type {
  ClusterConfigInput,
  DocklensConfigInput,
  EngineTuningInput,
  TokenInput,
} from "./config-input.ts";

const flag = cached(() => z.optional(z.boolean({ error: "expected true or false" })));
/** An integer from 1 to 10000. */
const upTo10000 = cached(() =>
  z.optional(
    fields().integer.check(
      z.minimum(1, "expected at least 1"),
      z.maximum(10_000, "expected at most 10000"),
    ),
  ),
);

/**
 * The schema of each key of the config file, made the first time a file has the key: a file of
 * clusters alone makes the clusters' schema, not those of tokens, nodes, NATS or alerts.
 */
const KEYS = {
  clusters: cached(() =>
    z.optional(
      z
        .array(clusterSchema(), { error: "expected an array of clusters" })
        .check(z.minLength(1, "expected at least one cluster")),
    ),
  ),
  defaults: cached(() => z.optional(z.strictObject(fields().tuning))),
  showSecrets: flag,
  maxSelection: upTo10000,
  contexts: flag,
  discover: flag,
  tokens: cached(() =>
    z.optional(z.array(tokenSchema(), { error: "expected an array of tokens" })),
  ),
  // Checked where serve uses them (server/exposure.ts), which says what a host name is.
  allowedHosts: cached(() =>
    z.optional(z.array(fields().text, { error: "expected an array of host names" })),
  ),
  maxStreams: upTo10000,
  alerts: cached(() => z.optional(alertsSchema())),
  nats: cached(() => z.optional(natsSchema())),
  nodes: cached(() => z.optional(nodesSchema())),
  history: cached(() => z.optional(historySchema())),
  metrics: cached(() => z.optional(metricsSchema())),
};
type Shape = { [K in keyof typeof KEYS]: ReturnType<(typeof KEYS)[K]> };
/** The schema of a config file. */
type ConfigSchema = z.ZodMiniObject<Shape, z.core.$strict>;

/** What stands for a key the file does not have: optional, so never asked to check anything. */
const absent = cached(() => z.optional(z.never()));

/**
 * The schema of the config file `input`: every key known, so that a misspelt one is refused,
 * each checked by its own schema when `input` has it.
 */
function configSchemaFor(input: unknown): ConfigSchema {
  const has = (key: string) =>
    typeof input === "object" && input !== null && Object.hasOwn(input, key);
  const shape = Object.fromEntries(
    Object.entries(KEYS).map(([key, make]) => [key, has(key) ? make() : absent()]),
  ) as Shape;
  return z
    .strictObject(shape, { error: "expected an object with a `clusters` array" })
    .check(z.superRefine(checkConfig));
}

/** What no key's schema checks alone: that some clusters are named, and names and ids are unique. */
function checkConfig(config: z.output<ConfigSchema>, ctx: z.core.$RefinementCtx): void {
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
}

/** `true` when `A` and `B` are the same type, property by property. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Compiles only while the schema takes exactly {@link DocklensConfigInput}: a field added to one
 * and not the other, or typed otherwise, fails the type check here.
 */
export type SchemaTakesConfigInput = Assert<Same<z.input<ConfigSchema>, DocklensConfigInput>>;
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
  const schema = configSchemaFor(input);
  const parsed = schema.safeParse(input, {
    error: z.locales.en().localeError,
    jitless: true,
  });
  if (!parsed.success) {
    // A misspelt key explains the "required" beside it: report it first, with the key meant.
    const issues = parsed.error.issues;
    const issue = issues.find((candidate) => candidate.code === "unrecognized_keys") ?? issues[0]!;
    if (issue.code !== "unrecognized_keys") return fail(issue.path, issue.message);
    const known = Object.keys(shapeAt(schema, issue.path));
    const unknown = issue.keys.map((key) => {
      const meant = suggest(key, known);
      return `unknown key ${JSON.stringify(key)}${meant ? ` (did you mean ${JSON.stringify(meant)}?)` : ""}`;
    });
    return fail(issue.path, unknown.join(", "));
  }
  const { clusters, defaults, showSecrets, maxSelection, contexts, discover, tokens } = parsed.data;
  const { allowedHosts, maxStreams, alerts, nodes, nats, history, metrics } = parsed.data;
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
  // A hub (nodes or NATS named, no clusters) has no engine of its own unless it asks to discover:
  // a `local` it never meant would stay listed down where no Docker runs.
  const hubOnly = !clusters && !contexts && !discover && Boolean(nodes?.length || nats);
  const found = clusters || hubOnly ? discoverMore(env, own, asked) : discoverClusters(env, asked);
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
    ...(history === undefined ? {} : { history: toHistoryConfig(history) }),
    ...(metrics === undefined ? {} : { metrics: toMetricsConfig(metrics) }),
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
  return tokens.flatMap((token) =>
    token.clusters
      .filter((glob) => !namesNodeCluster(glob, nodes))
      .filter((glob) => !clusters.some((cluster) => clusterGlob(glob).test(cluster.name)))
      .map(
        (glob) =>
          `token ${JSON.stringify(token.name)}: its clusters glob ${JSON.stringify(glob)} matches no cluster`,
      ),
  );
}

/** The keys the config allows at `path` (an object inside it), read from its schema itself. */
function shapeAt(config: z.ZodMiniType, path: ReadonlyArray<PropertyKey>): Record<string, unknown> {
  let schema = config;
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
