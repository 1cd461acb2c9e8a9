#!/usr/bin/env node
// `docklens stats --no-stream` against `docker stats --no-stream` on one engine with N running
// containers (default 50): the median of R runs each (default 5). Run by hand, as root:
//   node bench/many-stats.mjs [--containers 50] [--runs 5] [--dir /tmp/docklens-bench-many]
// then stop the engine: bash scripts/engine.sh stop /tmp/docklens-bench-many
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BIN, median, runningEngine } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "50" },
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: "/tmp/docklens-bench-many" },
  },
});
const host = runningEngine(values.dir, Number(values.containers), "sleep 100000");
const configDir = mkdtempSync(join(tmpdir(), "docklens-many-stats-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(config, JSON.stringify({ clusters: [{ name: "bench", host }] }));

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
const docker = [];
const docklens = [];
for (let run = 0; run < Number(values.runs); run++) {
  docker.push(time("docker", ["-H", host, "stats", "--no-stream"]));
  docklens.push(time(process.execPath, [BIN, "stats", "--no-stream", "--config", config]));
}
const ms = (runs) => median(runs.map((run) => run.ms));
console.log(
  `${values.containers} running containers, median of ${values.runs} runs: ` +
    `docker stats --no-stream ${ms(docker).toFixed(0)} ms (${docker[0].rows} rows), ` +
    `docklens stats --no-stream ${ms(docklens).toFixed(0)} ms (${docklens[0].rows} rows): ` +
    `${(ms(docklens) / ms(docker)).toFixed(2)}x docker's`,
);
rmSync(configDir, { recursive: true, force: true });
