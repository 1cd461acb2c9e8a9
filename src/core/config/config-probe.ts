import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import envPaths from "env-paths";

const EXTENSIONS = ["json", "yaml", "yml", "js", "ts", "cjs", "mjs"];
/** What cosmiconfig reads in the working directory for its own settings, before any search. */
const META_PLACES = ["package.yaml", ...EXTENSIONS.map((ext) => `.config/config.${ext}`)];
/** What it tries in the global config directory (`~/.config/docklens/` on Linux). */
const GLOBAL_PLACES = ["config", ...EXTENSIONS.map((ext) => `config.${ext}`)];

/** Where {@link mayFindConfig} looks; each defaults to where cosmiconfig looks. */
export interface ProbeOptions {
  /** Where cosmiconfig reads its own settings: the process's working directory. */
  metaDir?: string;
  /** Where the upward search stops: the home directory. */
  stopDir?: string;
  /** The global config directory, from env-paths. */
  globalDir?: string;
}

/**
 * Whether cosmiconfig's search (strategy "global") from `cwd` could find a file at all, checked
 * where that search looks, one existence check per name, without loading cosmiconfig.
 *
 * Why: loading cosmiconfig and letting it try each name costs a CLI run about 12 ms, a sixth of
 * `docklens containers --json` (bench/cli.mjs), and on the embedded default nothing is there to find.
 * It errs towards yes (a file it cannot stat or parse counts); cosmiconfig then searches as
 * before, and decides what is found or reports what is broken.
 */
export function mayFindConfig(
  cwd: string,
  searchPlaces: readonly string[],
  moduleName: string,
  options: ProbeOptions = {},
): boolean {
  if (mayHaveMetaConfig(options.metaDir ?? process.cwd())) return true;
  const stop = resolve(options.stopDir ?? homedir());
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (
      searchPlaces.some((place) =>
        place === "package.json" ? hasKey(join(dir, place), moduleName) : present(join(dir, place)),
      )
    )
      return true;
    if (dir === stop || dirname(dir) === dir) break;
  }
  const globalDir = options.globalDir ?? envPaths(moduleName, { suffix: "" }).config;
  return GLOBAL_PLACES.some((place) => present(join(globalDir, place)));
}

/**
 * Whether cosmiconfig may find settings of its own in `metaDir` (it looks in the process's working
 * directory: `.config/config.*`, `package.yaml`, package.json's `cosmiconfig`): they can change
 * where it searches and how it reads a file. Errs towards yes, as {@link mayFindConfig} does.
 */
export function mayHaveMetaConfig(metaDir: string): boolean {
  return (
    META_PLACES.some((place) => present(join(metaDir, place))) ||
    hasKey(join(metaDir, "package.json"), "cosmiconfig")
  );
}

/** Whether something is at `path`: only "no such file" is no; a symlink loop, say, is for cosmiconfig to report. */
function present(path: string): boolean {
  try {
    // No exception for the usual answer, "no such file": a run asks some 40 times.
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/**
 * Whether a package.json has the top-level `key` cosmiconfig would read; yes when it cannot
 * tell, and for `null`, on which cosmiconfig fails.
 */
function hasKey(file: string, key: string): boolean {
  if (!present(file)) return false;
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return value === null || Object.hasOwn(value as object, key);
  } catch {
    return true;
  }
}
