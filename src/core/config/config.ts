import { resolve } from "node:path";
import { mayFindConfig } from "./config-probe.ts";
import type { DocklensConfig } from "./cluster-config.ts";
import { discoverClusters } from "./discovery.ts";
import { DocklensError } from "../errors.ts";
import { fileErrorReason } from "./file-errors.ts";
import { readJsonConfig } from "./json-config.ts";

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** An explicit config file (`--config`); wins over `DOCKLENS_CONFIG`. */
  configPath?: string;
  /** Where the search starts; defaults to the working directory. */
  cwd?: string;
  /** Environment to read `DOCKLENS_CONFIG`, `DOCKER_HOST`, `DOCKER_CERT_PATH` from. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The names a search tries in each directory, in this order
 * (docs/http-interface.md, "Configuration file").
 */
export const SEARCH_PLACES = [
  "package.json",
  ...["", ".json", ".yaml", ".yml", ".js", ".mjs", ".cjs"].map((ext) => `.docklensrc${ext}`),
  ...["json", "yaml", "yml", "js", "mjs", "cjs", "ts"].map((ext) => `docklens.config.${ext}`),
];

/**
 * Load the configuration (docs/http-interface.md, "Configuration file"): `configPath`, else
 * `DOCKLENS_CONFIG`, else a cosmiconfig search from `cwd` up to the home directory and
 * `~/.config/docklens/`; with none found, every engine this machine already knows: `local` (the
 * engine the docker CLI would use now), the other docker contexts and a Podman socket. Throws
 * `INVALID_CONFIG`.
 * @example
 * ```ts
 * const config = await loadConfig({ configPath: "docklens.json" });
 * console.log(config.clusters.map((cluster) => cluster.name));
 * ```
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<DocklensConfig> {
  const env = options.env ?? process.env;
  const explicit = options.configPath ?? (env.DOCKLENS_CONFIG || undefined);
  const cwd = options.cwd ?? process.cwd();
  const none =
    `no config file from ${cwd} up to the home directory, nor in ~/.config/docklens, ` +
    "and DOCKLENS_CONFIG is not set";
  if (!explicit && !mayFindConfig(cwd, SEARCH_PLACES, "docklens")) return withoutFile(env, none);
  const file = explicit ? resolve(options.cwd ?? "", explicit) : undefined;
  let found = file === undefined ? undefined : readJsonConfig(file);
  if (!found) {
    const explorer = await createExplorer();
    try {
      found = (file ? await explorer.load(file) : await explorer.search(options.cwd)) ?? undefined;
    } catch (error) {
      throw new DocklensError("INVALID_CONFIG", readFailure(error, file));
    }
  }
  if (!found) return withoutFile(env, none);
  if (found.isEmpty)
    throw new DocklensError(
      "INVALID_CONFIG",
      `invalid config ${found.filepath}: the file is empty`,
    );
  // The schema library loads only when there is a file to check: `npx docklens` on the
  // embedded default starts without it.
  const { normalizeConfig } = await import("./config-schema.ts");
  return normalizeConfig(found.config, found.filepath, env);
}

/**
 * A `.js`, `.mjs` or `.cjs` config, imported as cosmiconfig's own loader imports it, without its
 * fallback: when the import fails (the file throws, or imports a missing module), cosmiconfig
 * tries again through `import-fresh`, which in docklens's bundle has no `__filename` and throws
 * `__filename is not defined` in place of the config's own error (and would run the file twice).
 */
async function loadModule(filepath: string): Promise<unknown> {
  const { realpath } = process.getBuiltinModule("node:fs/promises");
  const { pathToFileURL } = process.getBuiltinModule("node:url");
  const { href } = pathToFileURL(await realpath(filepath));
  return ((await import(href)) as { default?: unknown }).default;
}

/** cosmiconfig, searching {@link SEARCH_PLACES} up to the home directory, then the global one. */
async function createExplorer() {
  const { cosmiconfig, defaultLoaders } = await import("cosmiconfig");
  const own = { ".js": loadModule, ".mjs": loadModule, ".cjs": loadModule };
  // Each loader tags its failure with the file, so that a broken file found by the search is named.
  const loaders = Object.fromEntries(
    Object.entries({ ...defaultLoaders, ...own }).map(([ext, load]) => [
      ext,
      async (filepath: string, content: string) => {
        try {
          return (await load(filepath, content)) as unknown;
        } catch (error) {
          // A config may throw anything: a string, null.
          const failure = error instanceof Object ? (error as Error) : new Error(String(error));
          throw Object.assign(failure, { filepath });
        }
      },
    ]),
  );
  return cosmiconfig("docklens", {
    searchPlaces: SEARCH_PLACES,
    searchStrategy: "global",
    loaders,
  });
}

/**
 * With no config file, every engine this machine already knows (see {@link discoverClusters});
 * `reason` says why no file was used, for `docklens config`.
 */
function withoutFile(env: NodeJS.ProcessEnv, reason: string): DocklensConfig {
  const { clusters, warnings, skipped } = discoverClusters(env);
  return {
    source: null,
    noFileReason: reason,
    showSecrets: false,
    clusters,
    warnings,
    ...(skipped.length ? { skipped } : {}),
  };
}

/**
 * One line for a config file that could not be read or parsed. Parser messages carry a code
 * frame over several lines; keep the file and the parser's reason (with its line and column).
 */
function readFailure(error: unknown, file: string | undefined): string {
  const err = error as NodeJS.ErrnoException & {
    filepath?: string;
    reason?: string;
    mark?: { line: number; column: number };
  };
  const where = file ?? err.filepath ?? "";
  const reason =
    fileErrorReason(err) ??
    (err.reason && err.mark
      ? `${err.reason} (line ${err.mark.line + 1}, column ${err.mark.column + 1})`
      : undefined) ??
    String(err.message ?? error)
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line && !/^(?:YAML|JSON) Error in|^[>|^\-\d]/.test(line)) ??
    "unreadable";
  return `cannot read config ${where}: ${reason}`;
}
