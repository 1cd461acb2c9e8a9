import { z } from "zod";
import { parseEndpoint, type Endpoint } from "./endpoint.ts";
import { DocklensError } from "./errors.ts";
import { NAME_PATTERN } from "./names.ts";

/** Time limit of an engine call when neither the cluster nor `defaults` sets one (D12). */
export const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_ICON = "🐳";

const integer = (what: string) =>
  z.int({ error: (issue) => (issue.input === undefined ? "required" : `expected ${what}`) });
const text = z.string({ error: (issue) => (issue.input === undefined ? "required" : "expected a string") });
const timeoutMs = integer("an integer").min(1, "expected at least 1 ms").max(600_000, "expected at most 600000 ms");

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
    timeoutMs: timeoutMs.optional(),
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
    defaults: z.strictObject({ timeoutMs: timeoutMs.optional() }).optional(),
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

/** One cluster, with every default applied and its endpoint parsed. */
export interface ClusterConfig extends Endpoint {
  id: number;
  name: string;
  icon: string;
  /** The `host` exactly as configured (D2). */
  host: string;
  timeoutMs: number;
  /** Paths of TLS files; present when the engine is reached over TLS. */
  tls?: { ca?: string; cert?: string; key?: string };
  ssh?: { username?: string; privateKey?: string };
}

/** A loaded, validated configuration. */
export interface DocklensConfig {
  clusters: ClusterConfig[];
  showSecrets: boolean;
  /** The file it was read from; `null` for the embedded default. */
  source: string | null;
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** An explicit config file (`--config`); wins over `DOCKLENS_CONFIG`. */
  configPath?: string;
  /** Where the search starts; defaults to the working directory. */
  cwd?: string;
  /** Environment to read `DOCKLENS_CONFIG`, `DOCKER_HOST`, `DOCKER_CERT_PATH` from. */
  env?: NodeJS.ProcessEnv;
}

const SEARCH_PLACES = [
  "package.json",
  ...["", ".json", ".yaml", ".yml", ".js", ".mjs", ".cjs"].map((ext) => `.docklensrc${ext}`),
  ...["json", "yaml", "yml", "js", "mjs", "cjs", "ts"].map((ext) => `docklens.config.${ext}`),
];

/**
 * Load the configuration (D11): `configPath`, else `DOCKLENS_CONFIG`, else a cosmiconfig search
 * from `cwd` up to the home directory and `~/.config/docklens/`; with none found, the embedded
 * cluster `local` on `DOCKER_HOST` or `/var/run/docker.sock`. Throws `INVALID_CONFIG`.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<DocklensConfig> {
  const env = options.env ?? process.env;
  const explicit = options.configPath ?? (env.DOCKLENS_CONFIG || undefined);
  const { cosmiconfig } = await import("cosmiconfig");
  const explorer = cosmiconfig("docklens", { searchPlaces: SEARCH_PLACES, searchStrategy: "global" });
  let found: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  try {
    found = explicit ? await explorer.load(explicit) : await explorer.search(options.cwd);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : firstLine(error);
    throw new DocklensError("INVALID_CONFIG", `cannot read config ${explicit ?? ""}: ${reason}`.replace(" :", ":"));
  }
  if (!found) return embeddedConfig(env);
  if (found.isEmpty) throw new DocklensError("INVALID_CONFIG", `invalid config ${found.filepath}: the file is empty`);
  return normalizeConfig(found.config, found.filepath);
}

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
    clusters: clusters.map((cluster, index) => {
      const icon = cluster.icon ?? DEFAULT_ICON;
      return {
        ...parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined),
        id: cluster.id ?? index + 1,
        name: cluster.name,
        icon,
        host: cluster.host,
        timeoutMs: cluster.timeoutMs ?? defaults?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(cluster.tls ? { tls: cluster.tls } : {}),
        ...(cluster.ssh ? { ssh: cluster.ssh } : {}),
      };
    }),
  };
}

/** The embedded default (D11): one cluster `local`, as the docker CLI would reach it. */
function embeddedConfig(env: NodeJS.ProcessEnv): DocklensConfig {
  const host = env.DOCKER_HOST || "/var/run/docker.sock";
  const certPath = env.DOCKER_TLS_VERIFY && env.DOCKER_CERT_PATH;
  const tls = certPath ? { ca: `${certPath}/ca.pem`, cert: `${certPath}/cert.pem`, key: `${certPath}/key.pem` } : undefined;
  try {
    return normalizeConfig({ clusters: [{ id: 1, name: "local", host, ...(tls ? { tls } : {}) }] }, null);
  } catch (error) {
    throw new DocklensError("INVALID_CONFIG", `DOCKER_HOST ${JSON.stringify(host)}: ${(error as Error).message.replace(/^.*host: /, "")}`);
  }
}

/** `["clusters", 1, "port"]` → `clusters[1].port`. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`)).join("");
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!;
}
