// The embedded history store on SQLite: appends queued and written in one transaction every
// `flushMs` or `batchRows` rows, with prepared statements; retention by age and by size on a timer;
// a database that cannot be opened or written costs the records (counted), never the caller.
import type { DatabaseSync } from "node:sqlite";
import { databaseBytes, openDatabase } from "./sqlite-open.ts";
import { nanos } from "./sqlite-reads.ts";
import { SqliteWrites } from "./sqlite-writes.ts";
import type {
  ContainerRecord,
  HistoryStatus,
  HistoryStore,
  StoredEvent,
  StoredLogLine,
  StoredStatsSample,
} from "./store.ts";

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file; `:memory:` for one that lives as long as the store. */
  path: string;
  /** Records older than this are deleted (default 7 days). */
  maxAgeMs?: number;
  /** The file is kept under this many bytes (default 2 GiB). */
  maxBytes?: number;
  /** Milliseconds since the epoch; `Date.now` by default (tests give a clock of their own). */
  now?: () => number;
  flushMs?: number;
  batchRows?: number;
  /** Rows held unwritten at most; past it, appends are dropped (and counted). */
  maxQueuedRows?: number;
  /** How often retention runs; 0: only when asked ({@link HistoryStore.prune}). */
  pruneEveryMs?: number;
  /** Told once each time the store goes from keeping records to failing to. */
  onProblem?: (problem: string) => void;
  /** Open for reading only (a CLI one-off reading serve's file). */
  readOnly?: boolean;
}

const DEFAULTS = {
  maxAgeMs: 7 * 86_400_000,
  maxBytes: 2 * 1024 ** 3,
  flushMs: 250,
  batchRows: 5000,
  maxQueuedRows: 200_000,
  pruneEveryMs: 60_000,
};

/**
 * Open the SQLite history store at `options.path`. It never throws for a file it cannot use: the
 * store it returns then keeps nothing, counts what it was given and says why in `status()`.
 * @example
 * ```ts
 * const store = await openSqliteStore({ path: "/var/lib/docklens/history.sqlite" });
 * const line = { cluster: 1, id: "4c1b…", name: "web", timeUs: Date.now() * 1000, seq: 0 };
 * store.appendLogs([{ ...line, stream: "stdout", text: "listening on :8080" }]);
 * const last = await store.logs({ clusters: [1], container: "web", tail: 100 });
 * ```
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<HistoryStore> {
  const settings = { ...DEFAULTS, now: Date.now, ...options };
  let db: DatabaseSync | undefined;
  let problem: string | undefined;
  try {
    db = await openDatabase(options.path, settings);
  } catch (error) {
    problem = `cannot open: ${(error as Error).message}`;
    options.onProblem?.(problem);
  }
  return new SqliteStore(db, settings, problem);
}

type Settings = typeof DEFAULTS & SqliteStoreOptions & { now: () => number };

class SqliteStore extends SqliteWrites implements HistoryStore {
  private queuedEvents: StoredEvent[] = [];
  private queuedRecords: ContainerRecord[] = [];
  private queuedLines: StoredLogLine[] = [];
  private queuedSamples: StoredStatsSample[] = [];
  private queued = 0;
  private dropped = 0;
  private bytes = 0;
  private readonly timer?: NodeJS.Timeout;
  private readonly pruner?: NodeJS.Timeout;
  private soon?: NodeJS.Immediate;

  constructor(
    db: DatabaseSync | undefined,
    private readonly settings: Settings,
    private problem: string | undefined,
  ) {
    super(db);
    if (!db || settings.readOnly) return;
    this.bytes = databaseBytes(db).file;
    this.timer = setInterval(() => void this.flush(), settings.flushMs).unref();
    if (settings.pruneEveryMs > 0)
      this.pruner = setInterval(() => void this.prune(), settings.pruneEveryMs).unref();
  }

  appendEvents(events: readonly StoredEvent[]): void {
    if (this.take(events.length)) this.queuedEvents.push(...events);
  }

  putContainer(record: ContainerRecord): void {
    if (this.take(1)) this.queuedRecords.push(record);
  }

  appendLogs(lines: readonly StoredLogLine[]): void {
    if (this.take(lines.length)) this.queuedLines.push(...lines);
  }

  appendStats(samples: readonly StoredStatsSample[]): void {
    if (this.take(samples.length)) this.queuedSamples.push(...samples);
  }

  /** Whether `count` rows more may be queued; else they are counted as dropped. */
  private take(count: number): boolean {
    if (!this.db || this.settings.readOnly || this.queued + count > this.settings.maxQueuedRows) {
      this.dropped += count;
      return false;
    }
    this.queued += count;
    if (this.queued >= this.settings.batchRows && !this.soon)
      this.soon = setImmediate(() => void this.flush());
    return true;
  }

  flush(): Promise<void> {
    if (this.soon) clearImmediate(this.soon);
    this.soon = undefined;
    const db = this.db;
    if (!db || !this.queued) return Promise.resolve();
    const batch = {
      events: this.queuedEvents,
      records: this.queuedRecords,
      lines: this.queuedLines,
    };
    const samples = this.queuedSamples;
    const count = this.queued;
    this.queuedEvents = [];
    this.queuedRecords = [];
    this.queuedLines = [];
    this.queuedSamples = [];
    this.queued = 0;
    try {
      db.exec("BEGIN");
      this.write(batch.events, batch.records, batch.lines, samples);
      db.exec("COMMIT");
      this.problem = undefined;
    } catch (error) {
      if (db.isOpen) db.exec("ROLLBACK");
      // Keys handed out in the rolled back transaction are not there.
      this.keys.clear();
      this.dropped += count;
      this.fail(`cannot write: ${(error as Error).message}`);
    }
    this.bytes = databaseBytes(db).file;
    // Near its bound: make room now, not at the next round.
    return this.bytes > this.settings.maxBytes * 0.9 ? this.prune() : Promise.resolve();
  }

  private fail(problem: string): void {
    const told = this.problem !== undefined;
    this.problem = problem;
    if (!told) this.settings.onProblem?.(problem);
  }

  async prune(): Promise<void> {
    const db = this.db;
    if (!db || this.settings.readOnly) return;
    try {
      const { maxAgeMs, maxBytes } = this.settings;
      this.deleteBefore(this.settings.now() - maxAgeMs);
      // Over 90 % of its bound: the oldest tenth of what is left goes, until it is under.
      for (let round = 0; round < 20 && databaseBytes(db).used > maxBytes * 0.9; round++) {
        const span = this.timeSpan();
        if (!span) break;
        this.deleteBefore(span.oldest + Math.max(1000, (span.newest - span.oldest) / 10));
      }
      db.exec("PRAGMA incremental_vacuum");
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      this.bytes = databaseBytes(db).file;
    } catch (error) {
      this.fail(`cannot delete old records: ${(error as Error).message}`);
    }
  }

  /** Delete the records older than `time` (ms), and removed containers that have nothing left. */
  private deleteBefore(time: number): void {
    const db = this.db!;
    db.exec("BEGIN");
    try {
      for (const { key } of this.sources()) {
        this.run("DELETE FROM logs WHERE source = ? AND time_us < ?", key, Math.floor(time * 1000));
        this.run("DELETE FROM stats WHERE source = ? AND time < ?", key, Math.floor(time));
      }
      for (const { cluster } of this.all("SELECT DISTINCT cluster FROM events"))
        this.run("DELETE FROM events WHERE cluster = ? AND time_nano < ?", cluster!, nanos(time));
      this.run(
        `DELETE FROM containers WHERE removed IS NOT NULL AND removed < ?
         AND NOT EXISTS (SELECT 1 FROM logs WHERE source = key)
         AND NOT EXISTS (SELECT 1 FROM stats WHERE source = key)`,
        time,
      );
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    this.keys.clear();
  }

  /** The oldest and newest time (ms) of the lines and samples kept. */
  private timeSpan(): { oldest: number; newest: number } | undefined {
    let oldest = Infinity;
    let newest = -Infinity;
    for (const { key } of this.sources()) {
      const lines = this.get(
        "SELECT min(time_us) AS a, max(time_us) AS b FROM logs WHERE source = ?",
        key,
      );
      const stats = this.get(
        "SELECT min(time) AS a, max(time) AS b FROM stats WHERE source = ?",
        key,
      );
      for (const [a, b, unit] of [
        [lines?.a, lines?.b, 1000],
        [stats?.a, stats?.b, 1],
      ] as const)
        if (a !== null && a !== undefined) {
          oldest = Math.min(oldest, Number(a) / unit);
          newest = Math.max(newest, Number(b) / unit);
        }
    }
    return oldest === Infinity ? undefined : { oldest, newest };
  }

  status(): HistoryStatus {
    return {
      ...(this.problem ? { problem: this.problem } : {}),
      dropped: this.dropped,
      bytes: this.bytes,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.pruner);
    await this.flush();
    if (this.db?.isOpen) this.db.close();
  }
}
