#!/usr/bin/env node
// The embedded history store (issue 46) on its own, no engine: lines of `--containers` containers
// spread over 24 hours written through the store's queue (100-byte lines, as the issue counts
// them), then the reads the issue gives figures for. Needs Node 22.13 or later and a build:
//   npm run build
//   node22=$(npm exec --yes --package node@22 -- node -p process.execPath)
//   "$node22" bench/history.mjs
//   node bench/history.mjs [--lines 2000000] [--containers 1000] [--runs 5] [--dir /tmp/docklens-history-bench]
// It prints a Markdown table: bytes a stored line takes with its keys, write rate and CPU,
// one container's last hour, a grep over every line, a 24-hour CPU chart of one container.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RE2JS } from "re2js";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "2000000" },
    containers: { type: "string", default: "1000" },
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: "/tmp/docklens-history-bench" },
  },
});
const LINES = Number(values.lines);
const CONTAINERS = Number(values.containers);
const RUNS = Number(values.runs);
const { compileGrep, openSqliteStore } = await import("../dist/index.mjs");

rmSync(values.dir, { recursive: true, force: true });
mkdirSync(values.dir, { recursive: true });
const path = join(values.dir, "history.sqlite");
const DAY = 86_400_000;
const end = Date.now();
const start = end - DAY;
const store = await openSqliteStore({
  path,
  maxBytes: 2 ** 40,
  pruneEveryMs: 0,
  batchRows: 20_000,
});
const ref = (n) => ({ cluster: 1, id: n.toString(16).padStart(64, "0"), name: `web-${n}` });
const refs = Array.from({ length: CONTAINERS }, (_, n) => ref(n));

/** A 100-byte line: a counter, then filler that does not compress to nothing. */
const text = (i) =>
  `${i} GET /api/items/${(i * 7919) % 100_000} 200 ${"abcdefghij".repeat(10)}`.slice(0, 100);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const step = DAY / (LINES / CONTAINERS);
for (let i = 0; i < LINES; i++) {
  const container = refs[i % CONTAINERS];
  const time = start + Math.floor(i / CONTAINERS) * step;
  store.appendLogs([
    { ...container, timeUs: Math.floor(time * 1000), stream: "stdout", seq: 0, text: text(i) },
  ]);
  if (i % 20_000 === 19_999) await store.flush();
}
await store.flush();
const writeMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
// 24 hours of samples every 15 s for container 0.
const samples = [];
for (let time = start; time < end; time += 15_000)
  samples.push({
    ...refs[0],
    time,
    cpuPercent: (time / 1000) % 100,
    memoryUsage: 1 << 20,
    memoryLimit: 1 << 30,
    netRx: 0,
    netTx: 0,
    blockRead: 0,
    blockWrite: 0,
    pids: 1,
  });
store.appendStats(samples);
await store.flush();
await store.prune();
await store.close();
const bytes = statSync(path).size;

const reader = await openSqliteStore({ path, readOnly: true });
const time = async (fn) => {
  const all = [];
  let result;
  for (let run = 0; run < RUNS; run++) {
    const began = performance.now();
    result = await fn();
    all.push(performance.now() - began);
  }
  all.sort((a, b) => a - b);
  return { ms: all[Math.floor(all.length / 2)], result };
};
const lastHour = await time(() =>
  reader.logs({ clusters: [1], container: "web-0", since: end - 3_600_000 }),
);
// The same grep twice: RE2 on every line, then as docklens runs it (compileGrep), SQLite's
// substring search for the literal every match holds ("items/4242") before RE2.
const PATTERN = "items/4242[0-9] 200";
const re = RE2JS.compile(PATTERN);
const grepWith = (match) =>
  time(async () => {
    let found = 0;
    for (const { name } of refs)
      found += (await reader.logs({ clusters: [1], container: name, match })).length;
    return found;
  });
const grepRe2 = await grepWith((line) => re.test(line));
const grepAll = await grepWith(await compileGrep(PATTERN));
const chart = await time(() =>
  reader.stats({ clusters: [1], container: "web-0", since: start, stepMs: 300_000 }),
);
await reader.close();

const row = (what, figure, goal) => `| ${what} | ${figure} | ${goal} |`;
console.log(
  `Node ${process.version}, ${LINES.toLocaleString("en")} lines of 100 bytes, ${CONTAINERS} containers over 24 h; medians of ${RUNS} runs\n`,
);
console.log("| Figure | Measured | Issue 46's goal |\n| --- | --- | --- |");
console.log(
  row("stored bytes per 100-byte line (file / lines)", (bytes / LINES).toFixed(1), "≤ 150"),
);
console.log(
  row(
    "write rate (lines/s, one thread)",
    Math.round(LINES / (writeMs / 1000)).toLocaleString("en"),
    "20,000/s at ≤ 0.5 core",
  ),
);
console.log(
  row(
    "CPU per 20,000 lines (core-seconds)",
    (((cpu.user + cpu.system) / 1e6) * (20_000 / LINES)).toFixed(3),
    "≤ 0.5",
  ),
);
console.log(
  row(
    `one container's last hour (${lastHour.result.length} lines)`,
    `${lastHour.ms.toFixed(1)} ms`,
    "≤ 50 ms (of 10 M)",
  ),
);
console.log(
  row(
    `grep over all lines, RE2 on each (${grepRe2.result} matches)`,
    `${grepRe2.ms.toFixed(0)} ms`,
    "",
  ),
);
console.log(
  row(
    `grep over all lines, its literal first (${grepAll.result} matches)`,
    `${grepAll.ms.toFixed(0)} ms`,
    "≤ 2 s (of 10 M)",
  ),
);
console.log(
  row(
    `24-hour CPU chart, 5-minute steps (${chart.result[0]?.points.length} points)`,
    `${chart.ms.toFixed(1)} ms`,
    "≤ 50 ms",
  ),
);
