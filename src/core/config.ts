import { resolve } from "node:path";
import { mayFindConfig } from "./config-probe.ts";
import { parseEndpoint, type Endpoint } from "./endpoint.ts";
import { DocklensError } from "./errors.ts";

/** Time limit of an engine call when neither the cluster nor `defaults` sets one (D12). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Tuning of the engine layer, per cluster or under `defaults`. */
export interface EngineTuning {
  /** Time limit of each engine call (D12). */
  timeoutMs: number;
  /** Engine calls in flight at once; more wait their turn (within their time limit). */
  maxConcurrency: number;
  /** How long a read may be served again after it came; 0: only identical reads in flight share it. */
  cacheTtlMs: number;
}

/** The tuning of a cluster that sets none. */
export const DEFAULT_TUNING: EngineTuning = { timeoutMs: DEFAULT_TIMEOUT_MS, maxConcurrency: 8, cacheTtlMs: 0 };
/** Icon of a cluster that sets none (D2). */
export const DEFAULT_ICON = "🐳";

/** One cluster, with every default applied and its endpoint parsed. */
export interface ClusterConfig extends Endpoint, EngineTuning {
  id: number;
  name: string;
  icon: string;
  /** The `host` exactly as configured (D2). */
  host: string;
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

/** The names a search tries in each directory, in this order (D11). */
export const SEARCH_PLACES = [
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
  if (!explicit && !mayFindConfig(options.cwd ?? process.cwd(), SEARCH_PLACES, "docklens")) return await embeddedConfig(env);
  const { cosmiconfig, defaultLoaders } = await import("cosmiconfig");
  // Each loader tags its failure with the file, so that a broken file found by the search is named.
  const loaders = Object.fromEntries(
    Object.entries(defaultLoaders).map(([ext, load]) => [
      ext,
      async (filepath: string, content: string) => {
        try {
          return await load(filepath, content);
        } catch (error) {
          throw Object.assign(error as Error, { filepath });
        }
      },
    ]),
  );
  const explorer = cosmiconfig("docklens", { searchPlaces: SEARCH_PLACES, searchStrategy: "global", loaders });
  let found: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  try {
    found = explicit ? await explorer.load(resolve(options.cwd ?? "", explicit)) : await explorer.search(options.cwd);
  } catch (error) {
    throw new DocklensError("INVALID_CONFIG", readFailure(error, explicit ? resolve(options.cwd ?? "", explicit) : undefined));
  }
  if (!found) return await embeddedConfig(env);
  if (found.isEmpty) throw new DocklensError("INVALID_CONFIG", `invalid config ${found.filepath}: the file is empty`);
  // The schema library loads only when there is a file to check: `npx docklens` on the
  // embedded default starts without it.
  const { normalizeConfig } = await import("./config-schema.ts");
  return normalizeConfig(found.config, found.filepath);
}

/** The embedded default (D11): one cluster `local`, as the docker CLI would reach it. */
async function embeddedConfig(env: NodeJS.ProcessEnv): Promise<DocklensConfig> {
  const host = env.DOCKER_HOST || "/var/run/docker.sock";
  const certPath = env.DOCKER_TLS_VERIFY && env.DOCKER_CERT_PATH;
  const tls = certPath ? { ca: `${certPath}/ca.pem`, cert: `${certPath}/cert.pem`, key: `${certPath}/key.pem` } : undefined;
  if (tls) {
    // Loaded only for TLS: node:crypto is not on the path of a plain CLI run.
    const problem = (await import("./key-files.ts")).checkKeyFiles({ tls });
    if (problem) throw new DocklensError("INVALID_CONFIG", `DOCKER_CERT_PATH: ${problem.field.replace("tls.", "")}.pem: ${problem.message}`);
  }
  let endpoint: Endpoint;
  try {
    endpoint = parseEndpoint(host, undefined, tls !== undefined);
  } catch (error) {
    throw new DocklensError("INVALID_CONFIG", `DOCKER_HOST ${JSON.stringify(host)}: ${(error as Error).message}`);
  }
  return { source: null, showSecrets: false, clusters: [toClusterConfig({ id: 1, name: "local", host, ...(tls ? { tls } : {}) }, endpoint, DEFAULT_TUNING)] };
}

/** A cluster as written (validated) plus its parsed endpoint, with the defaults of D2 and D12. */
export function toClusterConfig(
  cluster: { id: number; name: string; icon?: string; host: string; tls?: ClusterConfig["tls"]; ssh?: ClusterConfig["ssh"] } & Partial<EngineTuning>,
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
    ...(cluster.tls ? { tls: cluster.tls } : {}),
    ...(cluster.ssh ? { ssh: cluster.ssh } : {}),
  };
}

const FILE_ERRORS: Record<string, string> = { ENOENT: "no such file", EISDIR: "is a directory", EACCES: "permission denied" };

/**
 * One line for a config file that could not be read or parsed. Parser messages carry a code
 * frame over several lines; keep the file and the parser's reason (with its line and column).
 */
function readFailure(error: unknown, file: string | undefined): string {
  const err = error as NodeJS.ErrnoException & { filepath?: string; reason?: string; mark?: { line: number; column: number } };
  const where = file ?? err.filepath ?? "";
  const reason =
    (err.code && FILE_ERRORS[err.code]) ??
    (err.reason && err.mark ? `${err.reason} (line ${err.mark.line + 1}, column ${err.mark.column + 1})` : undefined) ??
    String(err.message ?? error)
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line && !/^(?:YAML|JSON) Error in|^[>|^\-\d]/.test(line)) ??
    "unreadable";
  return `cannot read config ${where}: ${reason}`;
}
