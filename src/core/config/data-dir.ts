// Where docklens keeps what it remembers between runs: the ids of node clusters and history's
// store. One place decides it, so that every face and every store agree.
import { join, resolve } from "node:path";
import envPaths from "env-paths";

/** Options of {@link resolveDataDir}. */
export interface DataDirOptions {
  /** The directory given (`--data-dir`); it wins over the environment. */
  dataDir?: string;
}

/**
 * The data directory: `dataDir` if given, else `$DOCKLENS_DATA_DIR`, else the user's data
 * directory (`$XDG_DATA_HOME/docklens`, `~/.local/share/docklens` on Linux), as an absolute path.
 * It is not created here: a store creates it when it first writes.
 * @example
 * ```ts
 * const file = join(resolveDataDir({ dataDir: options.dataDir }), "nodes.json");
 * ```
 */
export function resolveDataDir(options: DataDirOptions = {}): string {
  return resolve(
    options.dataDir || process.env.DOCKLENS_DATA_DIR || envPaths("docklens", { suffix: "" }).data,
  );
}

/** The history store's file: the config's `history.path`, else `history.sqlite` in the data directory. */
export function historyPath(path: string | undefined, dataDir?: string): string {
  return path ?? join(resolveDataDir(dataDir ? { dataDir } : {}), "history.sqlite");
}
