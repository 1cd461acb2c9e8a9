#!/usr/bin/env node
// History recording at fleet rate (issue 46): `docklens serve` recording simulated engines
// (bench/simulated-engines.mjs: the bench engine's bodies, every container running) whose
// containers each write `--lines` lines a second of 100 bytes through a followed log. It prints
// serve's CPU while it records, the lines the engines wrote against those the store kept, and the
// file's bytes a line. Needs a build (`npm run build`) and Node 22.13 or later.
//   node bench/history-recording.mjs [--engines 10] [--containers 100] [--lines 20] [--seconds 30]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { cpuSeconds, ROOT, sleep } from "./lib.mjs";
import { recordBodies, startSimulatedEngines, withRunning } from "./simulated-engines.mjs";

const { values } = parseArgs({
  options: {
    engines: { type: "string", default: "10" },
    containers: { type: "string", default: "100" },
    lines: { type: "string", default: "20" },
    seconds: { type: "string", default: "30" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const [engines, perEngine, perSecond, seconds] = [
  values.engines,
  values.containers,
  values.lines,
  values.seconds,
].map(Number);
const bodies = withRunning(await recordBodies(values.dir, perEngine, false), 1);
const simulated = await startSimulatedEngines({
  bodies,
  delays: Array.from({ length: engines }, () => 5),
});
const work = mkdtempSync(join(tmpdir(), "docklens-history-recording-"));
const path = join(work, "history.sqlite");
const config = join(work, "docklens.json");
writeFileSync(
  config,
  JSON.stringify({
    clusters: simulated.ports.map((port, i) => ({ name: `sim-${i + 1}`, host: "127.0.0.1", port })),
    history: { path, logs: { max: perEngine } },
  }),
);
const serve = spawn(
  process.execPath,
  [join(ROOT, "bin/docklens.mjs"), "serve", "--config", config, "--port", "0", "--quiet"],
  { stdio: ["ignore", "pipe", "inherit"] },
);
try {
  await once(serve.stdout, "data");
  // Every container's follow opened (the recorder lists and follows each engine's running ones).
  await sleep(5000);
  simulated.writeLines(perSecond);
  await sleep(3000);
  const cpu0 = cpuSeconds(serve.pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const cpu = (cpuSeconds(serve.pid) - cpu0) / ((performance.now() - t0) / 1000);
  simulated.writeLines(0);
  await sleep(3000);
  const { lines } = await simulated.calls();
  serve.kill("SIGTERM");
  await once(serve, "exit");
  const db = new DatabaseSync(path, { readOnly: true });
  const kept = Number(db.prepare("SELECT count(*) AS n FROM logs").get().n);
  db.close();
  console.log(
    `Node ${process.version}, ${engines} engines of ${perEngine} running containers, each writing ${perSecond} lines/s (${(engines * perEngine * perSecond).toLocaleString("en")} lines/s in all), ${seconds} s measured\n`,
  );
  console.log("| Figure | Measured | Issue 46's goal |\n| --- | --- | --- |");
  console.log(`| serve's CPU while recording (cores) | ${cpu.toFixed(2)} | ≤ 0.5 |`);
  console.log(
    `| lines written by the engines / kept | ${lines.toLocaleString("en")} / ${kept.toLocaleString("en")} | nothing dropped |`,
  );
  console.log(
    `| file bytes per kept line (with events, records, stats) | ${(statSync(path).size / kept).toFixed(1)} | ≤ 150 |`,
  );
} finally {
  serve.kill("SIGKILL");
  await simulated.close();
  rmSync(work, { recursive: true, force: true });
}
