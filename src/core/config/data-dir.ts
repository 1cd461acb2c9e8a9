// Where docklens keeps what it writes (history): the user's data directory, XDG's on Linux
// ($XDG_DATA_HOME/docklens, else ~/.local/share/docklens), or the one `--data-dir` names.
import { join } from "node:path";
import envPaths from "env-paths";

/** The data directory: `given` (`--data-dir`), else the user's. */
export function dataDirectory(given?: string): string {
  return given ?? envPaths("docklens", { suffix: "" }).data;
}

/** The history store's file: the config's `history.path`, else `history.sqlite` in the data directory. */
export function historyPath(path: string | undefined, dataDir?: string): string {
  return path ?? join(dataDirectory(dataDir), "history.sqlite");
}
