#!/usr/bin/env node
// `docklens stats --no-stream` against `docker stats --no-stream` on one engine with N running
// containers (default 50): the median of R runs each (default 5). With `--engines E`, E engines
// (DIR, DIR-2, … DIR-E) of N containers each: docklens over all of them against `docker stats
// --no-stream` on each engine alone (the goal: about the slowest engine's time). Run by hand, as root:
//   node bench/many-stats.mjs [--containers 50] [--engines 1] [--runs 5] [--dir /tmp/docklens-bench-many]
// then stop the engines: bash scripts/engine.sh stop /tmp/docklens-bench-many (and DIR-2, …)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BIN, median, runningEngine } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "50" },
    engines: { type: "string", default: "1" },
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: "/tmp/docklens-bench-many" },
  },
});
const engines = Number(values.engines);
const hosts = Array.from({ length: engines }, (_, i) =>
  runningEngine(
    i ? `${values.dir}-${i + 1}` : values.dir,
    Number(values.containers),
    "sleep 100000",
  ),
);
const configDir = mkdtempSync(join(tmpdir(), "docklens-many-stats-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(
  config,
  JSON.stringify({
    clusters: hosts.map((host, i) => ({ name: i ? `bench-${i + 1}` : "bench", host })),
    maxSelection: Math.max(100, engines * Number(values.containers)),
  }),
);

/** Wall time of one run of a command, in ms, and the lines it printed. */
function time(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return {
    ms: Number(process.hrtime.bigint() - started) / 1e6,
    rows: result.stdout.trim().split("\n").length - 1,
  };
}
const docker = hosts.map(() => []);
const docklens = [];
for (let run = 0; run < Number(values.runs); run++) {
  hosts.forEach((host, i) => docker[i].push(time("docker", ["-H", host, "stats", "--no-stream"])));
  docklens.push(time(process.execPath, [BIN, "stats", "--no-stream", "--config", config]));
}
const ms = (runs) => median(runs.map((run) => run.ms));
const slowest = Math.max(...docker.map(ms));
console.log(
  `${engines} engine(s) x ${values.containers} running containers, median of ${values.runs} runs: ` +
    `docker stats --no-stream ${docker.map((runs) => `${ms(runs).toFixed(0)} ms (${runs[0].rows} rows)`).join(", ")}, ` +
    `docklens stats --no-stream over ${engines === 1 ? "it" : "all"} ${ms(docklens).toFixed(0)} ms ` +
    `(${docklens[0].rows} rows): ${(ms(docklens) / slowest).toFixed(2)}x the slowest docker's`,
);
rmSync(configDir, { recursive: true, force: true });
