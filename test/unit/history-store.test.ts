import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileGrep } from "../../src/core/containers/grep.ts";
import { openSqliteStore } from "../../src/core/history/sqlite-store.ts";
import { MAX_STORED_LINE } from "../../src/core/history/sqlite-writes.ts";
import type { HistoryStore, StoredLogLine } from "../../src/core/history/store.ts";

/** The embedded history store (issue 46), on an in-memory SQLite with a clock of the test's. */
const opened: HistoryStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1);

async function memoryStore(options: { maxAgeMs?: number; maxBytes?: number } = {}) {
  const clock = { now: T0 };
  const problems: string[] = [];
  const store = await openSqliteStore({
    path: ":memory:",
    now: () => clock.now,
    pruneEveryMs: 0,
    onProblem: (problem) => problems.push(problem),
    ...options,
  });
  opened.push(store);
  return { store, clock, problems };
}

const web = { cluster: 1, id: "a".repeat(64), name: "web" };
const line = (ms: number, text: string, seq = 0, ref = web): StoredLogLine => ({
  ...ref,
  timeUs: ms * 1000,
  stream: "stdout",
  seq,
  text,
});
const record = (time: number, state: string, removed: number | null = null, ref = web) => ({
  ...ref,
  time,
  image: "busybox",
  state,
  exitCode: state === "exited" ? 137 : null,
  removed,
  inspect: { Id: ref.id, Name: `/${ref.name}`, State: { Status: state } },
});

describe("history store", () => {
  it("keeps a line sent again (a restart reading since the last one) once", async () => {
    const { store } = await memoryStore();
    store.appendLogs([line(T0, "one"), line(T0, "two", 1), line(T0 + 1, "three")]);
    await store.flush();
    // What a follow since T0 reads again: the same lines, the same keys.
    store.appendLogs([
      line(T0, "one"),
      line(T0, "two", 1),
      line(T0 + 1, "three"),
      line(T0 + 2, "four"),
    ]);
    await store.flush();
    const lines = await store.logs({ clusters: [1], container: "web" });
    expect(lines.map((l) => l.text)).toEqual(["one", "two", "three", "four"]);
    expect((await store.resumePoint(1)).logTimesUs.get(web.id)).toBe((T0 + 2) * 1000);
  });

  it("finds every container that was `web`, by name or id prefix, only in the clusters asked", async () => {
    const { store } = await memoryStore();
    const next = { cluster: 1, id: "b".repeat(64), name: "web" };
    const other = { cluster: 2, id: "c".repeat(64), name: "web" };
    store.appendLogs([
      line(T0, "old"),
      line(T0 + 5, "new", 0, next),
      line(T0 + 1, "theirs", 0, other),
    ]);
    store.putContainer(record(T0 + 3, "exited", T0 + 4));
    store.putContainer(record(T0 + 5, "running", null, next));
    await store.flush();
    const texts = async (container: string, clusters = [1]) =>
      (await store.logs({ clusters, container })).map((l) => l.text);
    expect(await texts("web")).toEqual(["old", "new"]);
    expect(await texts("/web")).toEqual(["old", "new"]);
    expect(await texts("bbb")).toEqual(["new"]);
    expect(await texts("web", [2])).toEqual(["theirs"]);
    expect(await texts("web", [])).toEqual([]);
    const records = await store.containers({ clusters: [1], name: "web" });
    expect(records.map((r) => [r.id[0], r.state, r.exitCode, r.removed])).toEqual([
      ["b", "running", null, null],
      ["a", "exited", 137, T0 + 4],
    ]);
    expect(await store.containers({ clusters: [2] })).toEqual([]);
  });

  it("reads a window, a tail and a match", async () => {
    const { store } = await memoryStore();
    store.appendLogs(Array.from({ length: 100 }, (_, i) => line(T0 + i * 1000, `line ${i}`)));
    await store.flush();
    const read = (query: object) =>
      store
        .logs({ clusters: [1], container: "web", ...query })
        .then((lines) => lines.map((l) => l.text));
    expect(await read({ since: T0 + 10_000, until: T0 + 13_000 })).toEqual([
      "line 10",
      "line 11",
      "line 12",
    ]);
    expect(await read({ tail: 2 })).toEqual(["line 98", "line 99"]);
    expect(await read({ tail: 2, match: (text: string) => text.endsWith("5") })).toEqual([
      "line 85",
      "line 95",
    ]);
    // A grep with a literal: SQLite's substring search first, then RE2, in one scan.
    const grep = await compileGrep("ne 9[0-2]$");
    expect(grep.literal).toBe("ne 9");
    expect(await read({ since: T0 + 50_000, match: grep })).toEqual([
      "line 90",
      "line 91",
      "line 92",
    ]);
  });

  it("stores a huge line cut to its bound, and odd text as it came (a NUL as ␀)", async () => {
    const { store } = await memoryStore();
    const odd = "bell\u0007 esc\u001b[31m nul\u0000 \ufffd";
    store.appendLogs([line(T0, "x".repeat(5 << 20)), line(T0 + 1, odd)]);
    await store.flush();
    const [huge, kept] = await store.logs({ clusters: [1], container: "web" });
    expect(huge!.text.length).toBe(MAX_STORED_LINE);
    expect(kept!.text).toBe(odd.replace("\u0000", "\u2400"));
  });

  it("keeps events once, by cluster and time, of one container when asked", async () => {
    const { store } = await memoryStore();
    const event = (ms: number, action: string, id = web.id) => ({
      cluster: 1,
      time: ms,
      timeNano: `${ms}000001`,
      event: { Type: "container", Action: action, Actor: { ID: id, Attributes: { name: "web" } } },
    });
    store.appendEvents([
      event(T0, "start"),
      event(T0 + 1, "die"),
      event(T0 + 2, "start", "b".repeat(64)),
    ]);
    store.appendEvents([event(T0 + 1, "die")]);
    await store.flush();
    const all = await store.events({ clusters: [1], limit: 10 });
    expect(all.map((e) => e.event.Action)).toEqual(["start", "die", "start"]);
    expect((await store.events({ clusters: [1], limit: 10, container: "aaaa" })).length).toBe(2);
    expect((await store.events({ clusters: [1], limit: 1 })).map((e) => e.time)).toEqual([T0 + 2]);
    expect(await store.events({ clusters: [3], limit: 10 })).toEqual([]);
    expect((await store.resumePoint(1)).eventTimeNano).toBe(`${T0 + 2}000001`);
  });

  it("averages stats samples over each step", async () => {
    const { store } = await memoryStore();
    const figures = { memoryLimit: 100, netRx: 0, netTx: 0, blockRead: 0, blockWrite: 0, pids: 1 };
    store.appendStats(
      [0, 15, 30, 45, 60].map((s, i) => ({
        ...web,
        ...figures,
        time: T0 + s * 1000,
        cpuPercent: i * 10,
        memoryUsage: 10,
      })),
    );
    await store.flush();
    const [series] = await store.stats({ clusters: [1], container: "web", stepMs: 30_000 });
    expect(series!.points.map((p) => [p.time - T0, p.cpuPercent])).toEqual([
      [0, 5],
      [30_000, 25],
      [60_000, 40],
    ]);
  });

  it("deletes what is older than its age when the clock passes it", async () => {
    const { store, clock } = await memoryStore({ maxAgeMs: 24 * HOUR });
    const next = { cluster: 1, id: "b".repeat(64), name: "web" };
    store.appendLogs([line(T0, "old"), line(T0 + 20 * HOUR, "new", 0, next)]);
    store.putContainer(record(T0, "exited", T0 + 1));
    await store.flush();
    clock.now = T0 + 25 * HOUR;
    await store.prune();
    expect((await store.logs({ clusters: [1], container: "web" })).map((l) => l.text)).toEqual([
      "new",
    ]);
    expect(await store.containers({ clusters: [1] })).toEqual([]);
  });

  it("holds its size bound: the oldest lines go, the newest stay", async () => {
    const maxBytes = 2 << 20;
    const { store } = await memoryStore({ maxBytes });
    const text = "y".repeat(100);
    for (let batch = 0; batch < 60; batch++) {
      store.appendLogs(Array.from({ length: 1000 }, (_, i) => line(T0 + batch * 1000 + i, text)));
      await store.flush();
      expect(store.status().bytes).toBeLessThanOrEqual(maxBytes);
    }
    const lines = await store.logs({ clusters: [1], container: "web" });
    expect(lines.length).toBeGreaterThan(1000);
    expect(lines.at(-1)!.timeUs).toBe((T0 + 59_999) * 1000);
    expect(lines[0]!.timeUs).toBeGreaterThan(T0 * 1000);
  });

  it("keeps nothing but counts it, and says so once, when its file is not a database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "history-"));
    const path = join(dir, "h.sqlite");
    writeFileSync(path, "not a database, but long enough to be read as its header".repeat(100));
    try {
      const problems: string[] = [];
      const store = await openSqliteStore({ path, onProblem: (p) => problems.push(p) });
      opened.push(store);
      store.appendLogs([line(T0, "lost"), line(T0 + 1, "lost too")]);
      await store.flush();
      expect(store.status()).toMatchObject({
        dropped: 2,
        problem: expect.stringContaining("cannot open"),
      });
      expect(problems).toHaveLength(1);
      expect(await store.logs({ clusters: [1], container: "web" })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
