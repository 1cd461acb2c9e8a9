// The writes of the SQLite history store: prepared once, run inside the store's transaction; a
// line or sample names its container by an integer key, its row made on first sight.
import type { StatementSync } from "node:sqlite";
import { SqliteReads } from "./sqlite-reads.ts";
import type { ContainerRecord, StoredEvent, StoredLogLine, StoredStatsSample } from "./store.ts";

/** Lines longer than this many characters are cut when stored: a line is a record, not a file. */
export const MAX_STORED_LINE = 16 * 1024;

/** Writes rows, and reads them (sqlite-reads.ts). */
export class SqliteWrites extends SqliteReads {
  /** Keys of the containers written, by cluster and id: forgotten when a transaction rolls back. */
  protected readonly keys = new Map<string, number>();
  private writes?: Record<"event" | "record" | "source" | "key" | "line" | "sample", StatementSync>;

  protected write(
    events: StoredEvent[],
    records: ContainerRecord[],
    lines: StoredLogLine[],
    samples: StoredStatsSample[],
  ): void {
    const db = this.db!;
    this.writes ??= {
      event: db.prepare("INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)"),
      record: db.prepare(
        `INSERT INTO containers (cluster, id, name, time, image, state, exit_code, removed, inspect)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (cluster, id) DO UPDATE SET
         name = excluded.name, time = excluded.time, image = excluded.image, state = excluded.state,
         exit_code = excluded.exit_code, removed = excluded.removed, inspect = excluded.inspect
         WHERE excluded.time >= containers.time`,
      ),
      source: db.prepare(
        "INSERT OR IGNORE INTO containers (cluster, id, name, time) VALUES (?, ?, ?, ?)",
      ),
      key: db.prepare("SELECT key FROM containers WHERE cluster = ? AND id = ?"),
      line: db.prepare("INSERT OR IGNORE INTO logs VALUES (?, ?, ?, ?, ?)"),
      sample: db.prepare("INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
    };
    const w = this.writes;
    for (const { cluster, timeNano, event } of events) {
      const actor = (event.Actor ?? {}) as { ID?: string; Attributes?: { name?: string } };
      const name = actor.Attributes?.name ?? "";
      const action = typeof event.Action === "string" ? event.Action : "";
      w.event.run(cluster, timeNano, actor.ID ?? "", action, name, json(event));
    }
    for (const r of records)
      w.record.run(
        ...[r.cluster, r.id, r.name, r.time, r.image, r.state, r.exitCode, r.removed],
        json(r.inspect),
      );
    for (const line of lines)
      w.line.run(
        this.keyOf(line, line.timeUs / 1000),
        line.timeUs,
        line.stream === "stderr" ? 1 : 0,
        line.seq,
        storedText(line.text),
      );
    for (const s of samples)
      w.sample.run(
        ...[this.keyOf(s, s.time), s.time, s.cpuPercent, s.memoryUsage, s.memoryLimit],
        ...[s.netRx, s.netTx, s.blockRead, s.blockWrite, s.pids],
      );
  }

  /** The integer key of a line's or sample's container, its row made if it has none. */
  private keyOf(ref: { cluster: number; id: string; name: string }, time: number): number {
    const id = `${ref.cluster}\0${ref.id}`;
    let key = this.keys.get(id);
    if (key === undefined) {
      this.writes!.source.run(ref.cluster, ref.id, ref.name, Math.floor(time));
      key = Number((this.writes!.key.get(ref.cluster, ref.id) as { key: number }).key);
      this.keys.set(id, key);
    }
    return key;
  }
}

/**
 * A line as it is stored: cut to {@link MAX_STORED_LINE}, and each NUL as `␀` (SQLite's text
 * ends at a NUL, and the rest of the line with it).
 */
function storedText(text: string): string {
  const cut = text.length > MAX_STORED_LINE ? text.slice(0, MAX_STORED_LINE) : text;
  return cut.includes("\0") ? cut.replaceAll("\0", "\u2400") : cut;
}

/** JSON of a body whose numbers may be BigInts (core/json.ts parses them so). */
function json(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    typeof item === "bigint" ? item.toString() : item,
  );
}
