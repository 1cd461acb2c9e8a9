// The reads of the SQLite history store: each by the clusters a caller may see, a container's
// window read along its table's key (sqlite-open.ts), prepared statements kept for reuse.
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { LineTest } from "../containers/grep.ts";
import type {
  ContainerQuery,
  ContainerRecord,
  HistoryWindow,
  ResumePoint,
  StatsSeries,
  StoredContainerRef,
  StoredEvent,
  StoredLogLine,
} from "./store.ts";

/** A row as the store's tables hold them: no blobs, no integers past 2^53. */
type Row = Record<string, string | number | null>;
/** A container's row key and who it is. */
type Source = StoredContainerRef & { key: number };

const FOREVER = Number.MAX_SAFE_INTEGER;

/** The reads of the store over `db`; none (an empty answer) when it could not be opened. */
export class SqliteReads {
  private readonly statements = new Map<string, StatementSync>();
  /** The match of the read under way, which `history_match` calls; registered on first use. */
  private matching?: (text: string) => boolean;
  private registered = false;

  constructor(protected readonly db: DatabaseSync | undefined) {}

  protected statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db!.prepare(sql)));
    return statement;
  }

  protected run(sql: string, ...values: SQLInputValue[]): void {
    this.statement(sql).run(...values);
  }

  protected get(sql: string, ...values: SQLInputValue[]): Row | undefined {
    return this.statement(sql).get(...values) as Row | undefined;
  }

  protected all(sql: string, ...values: SQLInputValue[]): Row[] {
    return this.statement(sql).all(...values) as Row[];
  }

  /** Every container that has a row, of `clusters` when given. */
  protected sources(clusters?: readonly number[]): Source[] {
    const rows = clusters
      ? this.all(
          `SELECT key, cluster, id, name FROM containers WHERE cluster IN ${list(clusters)}`,
          ...clusters,
        )
      : this.all("SELECT key, cluster, id, name FROM containers");
    return rows.map(toSource);
  }

  /** The containers of `clusters` named `container`; else those whose id starts with it. */
  private named(clusters: readonly number[], container: string): Source[] {
    if (!clusters.length) return [];
    const name = container.replace(/^\//, "");
    const where = `FROM containers WHERE cluster IN ${list(clusters)}`;
    const byName = this.all(
      `SELECT key, cluster, id, name ${where} AND name = ?`,
      ...clusters,
      name,
    );
    if (byName.length || !/^[0-9a-f]+$/.test(name)) return byName.map(toSource);
    return this.all(
      `SELECT key, cluster, id, name ${where} AND substr(id, 1, ?) = ?`,
      ...clusters,
      name.length,
      name,
    ).map(toSource);
  }

  async containers(query: HistoryWindow & { name?: string }): Promise<ContainerRecord[]> {
    if (!this.db || !query.clusters.length) return [];
    const name = query.name?.replace(/^\//, "");
    const rows = this.all(
      `SELECT * FROM containers WHERE cluster IN ${list(query.clusters)}
       AND inspect IS NOT NULL ${name === undefined ? "" : "AND name = ?"} ORDER BY time DESC`,
      ...query.clusters,
      ...(name === undefined ? [] : [name]),
    );
    return rows.map((row) => ({
      ...toRef(row),
      time: Number(row.time),
      image: String(row.image),
      state: String(row.state),
      exitCode: row.exit_code === null ? null : Number(row.exit_code),
      removed: row.removed === null ? null : Number(row.removed),
      inspect: JSON.parse(String(row.inspect)) as Record<string, unknown>,
    }));
  }

  async events(
    query: HistoryWindow & { container?: string; limit: number },
  ): Promise<StoredEvent[]> {
    if (!this.db || !query.clusters.length) return [];
    const since = nanos(query.since ?? 0);
    const until = query.until === undefined ? "9".repeat(19) : nanos(query.until);
    const who = query.container?.replace(/^\//, "");
    const rows = this.all(
      `SELECT cluster, time_nano, body FROM events WHERE cluster IN ${list(query.clusters)}
       AND time_nano >= ? AND time_nano < ? ${who ? "AND (name = ? OR actor = ? OR substr(actor, 1, ?) = ?)" : ""}
       ORDER BY time_nano DESC LIMIT ?`,
      ...query.clusters,
      since,
      until,
      ...(who ? [who, who, who.length, who] : []),
      query.limit,
    );
    return rows.reverse().map((row) => ({
      cluster: Number(row.cluster),
      timeNano: String(row.time_nano),
      time: Math.floor(Number(String(row.time_nano).slice(0, -6))),
      event: JSON.parse(String(row.body)) as Record<string, unknown>,
    }));
  }

  async logs(
    query: ContainerQuery & { tail?: number; match?: LineTest },
  ): Promise<StoredLogLine[]> {
    if (!this.db) return [];
    const since = Math.floor((query.since ?? 0) * 1000);
    const until = Math.floor((query.until ?? FOREVER / 1000) * 1000);
    const found: StoredLogLine[] = [];
    // A match runs inside SQLite's scan (a function of this connection): only the lines it keeps
    // become rows in JavaScript, which costs more per line than the match itself.
    if (query.match && !this.registered) {
      this.db.function("history_match", (text) => (this.matching?.(String(text)) ? 1 : 0));
      this.registered = true;
    }
    this.matching = query.match;
    // SQLite's own substring search drops most lines before the match is called for them.
    const literal = query.match?.literal;
    const matched = query.match
      ? `${literal ? " AND instr(text, ?)" : ""} AND history_match(text)`
      : "";
    const where = `FROM logs WHERE source = ? AND time_us >= ? AND time_us < ?${matched}`;
    const bound = (key: number) => [key, since, until, ...(literal ? [literal] : [])];
    const columns = "SELECT time_us, stream, seq, text";
    try {
      for (const { key, ...ref } of this.named(query.clusters, query.container)) {
        // The last `tail` of the range, read from its end: nothing before them is read.
        const rows =
          query.tail === undefined
            ? this.all(`${columns} ${where} ORDER BY time_us, stream, seq`, ...bound(key))
            : this.all(
                `${columns} ${where} ORDER BY time_us DESC, stream DESC, seq DESC LIMIT ?`,
                ...bound(key),
                query.tail,
              ).reverse();
        for (const row of rows)
          found.push({
            ...ref,
            timeUs: Number(row.time_us),
            stream: row.stream ? "stderr" : "stdout",
            seq: Number(row.seq),
            text: String(row.text),
          });
      }
    } finally {
      this.matching = undefined;
    }
    found.sort((a, b) => a.timeUs - b.timeUs);
    return query.tail === undefined ? found : found.slice(Math.max(0, found.length - query.tail));
  }

  async stats(
    query: HistoryWindow & { container?: string; stepMs: number },
  ): Promise<StatsSeries[]> {
    if (!this.db) return [];
    const sources = query.container
      ? this.named(query.clusters, query.container)
      : this.sources(query.clusters);
    const step = Math.max(1, Math.floor(query.stepMs));
    const series: StatsSeries[] = [];
    for (const { key, ...container } of sources) {
      const rows = this.all(
        `SELECT time - time % ? AS at, avg(cpu) AS cpu, avg(mem) AS mem, max(mem_limit) AS mem_limit,
         max(net_rx) AS net_rx, max(net_tx) AS net_tx, max(blk_r) AS blk_r, max(blk_w) AS blk_w,
         max(pids) AS pids FROM stats WHERE source = ? AND time >= ? AND time < ?
         GROUP BY at ORDER BY at`,
        ...[step, key, query.since ?? 0, query.until ?? FOREVER],
      );
      if (!rows.length) continue;
      series.push({
        container,
        points: rows.map((row) => ({
          time: Number(row.at),
          cpuPercent: Number(row.cpu),
          memoryUsage: Math.round(Number(row.mem)),
          memoryLimit: Number(row.mem_limit),
          netRx: Number(row.net_rx),
          netTx: Number(row.net_tx),
          blockRead: Number(row.blk_r),
          blockWrite: Number(row.blk_w),
          pids: Number(row.pids),
        })),
      });
    }
    return series;
  }

  async resumePoint(cluster: number): Promise<ResumePoint> {
    const logTimesUs = new Map<string, number>();
    if (!this.db) return { logTimesUs };
    const last = this.get("SELECT max(time_nano) AS at FROM events WHERE cluster = ?", cluster);
    for (const { key, id } of this.sources([cluster])) {
      const at = this.get("SELECT max(time_us) AS at FROM logs WHERE source = ?", key)?.at;
      if (at !== null && at !== undefined) logTimesUs.set(id, Number(at));
    }
    return { ...(last?.at ? { eventTimeNano: String(last.at) } : {}), logTimesUs };
  }
}

/** `(?, ?, ?)`, a placeholder for each value. */
function list(values: readonly unknown[]): string {
  return `(${values.map(() => "?").join(", ")})`;
}

function toRef(row: Row): StoredContainerRef {
  return { cluster: Number(row.cluster), id: String(row.id), name: String(row.name) };
}

function toSource(row: Row): Source {
  return { key: Number(row.key), ...toRef(row) };
}

/** Milliseconds as a `timeNano` of the same text length (19 digits), which compares as numbers do. */
export function nanos(ms: number): string {
  return `${Math.max(0, Math.floor(ms))}000000`.padStart(19, "0");
}
