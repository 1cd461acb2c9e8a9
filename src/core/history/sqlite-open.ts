// Opening the embedded history store: Node's own SQLite (`node:sqlite`, Node 22.13 and later, no
// native build), loaded on first use so that a CLI one-off never loads it; its tables, each keyed so
// that a record sent again after a restart is kept once, and laid out so that one container's window
// is one range of its table's key.
import type { DatabaseSync } from "node:sqlite";

/** `node:sqlite`, loaded once. Node 22 warns that it is experimental: that is no news for serve's users. */
let loaded: Promise<typeof import("node:sqlite")> | undefined;

/** The module `node:sqlite`, loaded without its experimental warning. */
function loadSqlite(): Promise<typeof import("node:sqlite")> {
  loaded ??= (async () => {
    const original = Object.getOwnPropertyDescriptor(process, "emitWarning")!;
    const emitWarning = process.emitWarning.bind(process);
    const quieter: typeof emitWarning = (warning: string | Error, ...rest: never[]) => {
      if (!String(warning).includes("SQLite")) emitWarning(warning, ...rest);
    };
    process.emitWarning = quieter;
    try {
      return await import("node:sqlite");
    } catch {
      throw new Error(`node:sqlite needs Node 22.13 or later; this is Node ${process.version}`);
    } finally {
      Object.defineProperty(process, "emitWarning", original);
    }
  })();
  return loaded;
}

// A log line's and a sample's key is its container's `key` (an integer, not the 64-character id),
// then its time: WITHOUT ROWID tables keep the rows in that order, so a container's window is read
// without an index of its own. `seq` tells apart lines of one stream with the same microsecond.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS containers (
  key INTEGER PRIMARY KEY, cluster INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
  time INTEGER NOT NULL, image TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT '',
  exit_code INTEGER, removed INTEGER, inspect TEXT,
  UNIQUE (cluster, id));
CREATE INDEX IF NOT EXISTS containers_name ON containers (cluster, name);
CREATE TABLE IF NOT EXISTS events (
  cluster INTEGER NOT NULL, time_nano TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
  name TEXT NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (cluster, time_nano, actor, action)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS logs (
  source INTEGER NOT NULL, time_us INTEGER NOT NULL, stream INTEGER NOT NULL, seq INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (source, time_us, stream, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stats (
  source INTEGER NOT NULL, time INTEGER NOT NULL, cpu REAL NOT NULL, mem INTEGER NOT NULL,
  mem_limit INTEGER NOT NULL, net_rx INTEGER NOT NULL, net_tx INTEGER NOT NULL,
  blk_r INTEGER NOT NULL, blk_w INTEGER NOT NULL, pids INTEGER NOT NULL,
  PRIMARY KEY (source, time)) WITHOUT ROWID;
`;

/**
 * The store's database at `path` (`:memory:` for tests), made if it is not there: WAL, so that
 * reads (serve's, a CLI's) do not wait on writes; freed pages given back to the file
 * (incremental vacuum); and at most `maxBytes` of pages, so that a write past it fails (and is
 * counted) rather than grow the file past its bound.
 */
export async function openDatabase(
  path: string,
  options: { maxBytes: number; readOnly?: boolean },
): Promise<DatabaseSync> {
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  try {
    if (options.readOnly) return db;
    // Only before the first table: it decides how the file's pages are kept.
    db.exec("PRAGMA auto_vacuum = INCREMENTAL");
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA busy_timeout = 1000");
    db.exec(SCHEMA);
    const { page_size: pageSize } = db.prepare("PRAGMA page_size").get() as { page_size: number };
    db.exec(`PRAGMA max_page_count = ${Math.max(64, Math.floor(options.maxBytes / pageSize))}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Bytes the database's pages take now, and those of them in use. */
export function databaseBytes(db: DatabaseSync): { file: number; used: number } {
  const one = (pragma: string) => Number(Object.values(db.prepare(pragma).get() ?? {})[0] ?? 0);
  const size = one("PRAGMA page_size");
  const pages = one("PRAGMA page_count");
  return { file: pages * size, used: (pages - one("PRAGMA freelist_count")) * size };
}
