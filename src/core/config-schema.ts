import { z } from "zod";
import { DEFAULT_TUNING, toClusterConfig, type DocklensConfig } from "./config.ts";
import { parseEndpoint } from "./endpoint.ts";
import { DocklensError } from "./errors.ts";
import { NAME_PATTERN } from "./names.ts";

const integer = (what: string) =>
  z.int({ error: (issue) => (issue.input === undefined ? "required" : `expected ${what}`) });
const text = z.string({ error: (issue) => (issue.input === undefined ? "required" : "expected a string") });
const timeoutMs = integer("an integer").min(1, "expected at least 1 ms").max(600_000, "expected at most 600000 ms");
const tuning = {
  timeoutMs: timeoutMs.optional(),
  maxConcurrency: integer("an integer").min(1, "expected at least 1").max(256, "expected at most 256").optional(),
  cacheTtlMs: integer("an integer").min(0, "expected 0 or more ms").max(600_000, "expected at most 600000 ms").optional(),
};

const clusterSchema = z
  .strictObject({
    id: integer("an integer").min(1, "expected a positive integer").optional(),
    name: text
      .regex(NAME_PATTERN, "expected letters, digits, '_', '.' or '-', starting with a letter or digit")
      .refine((name) => !/^\d+$/.test(name), "must not be made only of digits (those are ids, D1)"),
    icon: text.max(16, "expected at most 16 characters").optional(),
    host: text.min(1, "required"),
    port: integer("an integer").min(1, "expected a port from 1 to 65535").max(65535, "expected a port from 1 to 65535").optional(),
    tls: z.strictObject({ ca: text.optional(), cert: text.optional(), key: text.optional() }).optional(),
    ssh: z.strictObject({ username: text.optional(), privateKey: text.optional() }).optional(),
    ...tuning,
  })
  .superRefine((cluster, ctx) => {
    try {
      parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined);
    } catch (error) {
      ctx.addIssue({ code: "custom", path: ["host"], message: (error as Error).message });
    }
  });

const configSchema = z
  .strictObject({
    clusters: z.array(clusterSchema, { error: "expected an array of clusters" }).min(1, "expected at least one cluster"),
    defaults: z.strictObject(tuning).optional(),
    showSecrets: z.boolean({ error: "expected true or false" }).optional(),
  }, { error: "expected an object with a `clusters` array" })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    const ids = new Set<number>();
    config.clusters.forEach((cluster, index) => {
      const id = cluster.id ?? index + 1;
      if (names.has(cluster.name)) ctx.addIssue({ code: "custom", path: ["clusters", index, "name"], message: `duplicate name "${cluster.name}"` });
      if (ids.has(id)) ctx.addIssue({ code: "custom", path: ["clusters", index, "id"], message: `duplicate id ${id}` });
      names.add(cluster.name);
      ids.add(id);
    });
  });

/** The config file's shape (D11), as written by the user. */
export type DocklensConfigInput = z.input<typeof configSchema>;

/**
 * Validate a parsed config object and apply the defaults of D2 and D11. Throws `INVALID_CONFIG`
 * naming `source` and the first bad field, e.g. `clusters[1].port: expected an integer`.
 */
export function normalizeConfig(input: unknown, source: string | null): DocklensConfig {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = formatPath(issue.path);
    const message = issue.code === "unrecognized_keys" ? `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}` : issue.message;
    throw new DocklensError("INVALID_CONFIG", `invalid config ${source ?? ""}: ${where ? `${where}: ` : ""}${message}`);
  }
  const { clusters, defaults, showSecrets } = parsed.data;
  return {
    source,
    showSecrets: showSecrets ?? false,
    clusters: clusters.map((cluster, index) =>
      toClusterConfig({ ...cluster, id: cluster.id ?? index + 1 }, parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined), { ...DEFAULT_TUNING, ...defaults }),
    ),
  };
}

/** `["clusters", 1, "port"]` → `clusters[1].port`. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`)).join("");
}

