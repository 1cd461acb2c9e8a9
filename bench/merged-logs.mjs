#!/usr/bin/env node
// Merged logs under load: `docklens serve` follows GET /logs of N containers (default 20) that
// each write L lines a second (default 200) for S seconds (default 30); prints whether every line
// arrived once, how many came out of time order, and serve's CPU time and memory. Run by hand,
// as root:   node bench/merged-logs.mjs [--containers 20] [--rate 200] [--seconds 30]
// then stop the engine: bash scripts/engine.sh stop /tmp/docklens-bench-many
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "20" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "30" },
    dir: { type: "string", default: "/tmp/docklens-bench-many" },
  },
});
const [count, rate, seconds] = [values.containers, values.rate, values.seconds].map(Number);
const total = rate * seconds;
const host = execFileSync("bash", [join(ROOT, "scripts/engine.sh"), "start", values.dir], {
  encoding: "utf8",
}).trim();
const docker = (...args) =>
  execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
// A tenth of a second's lines at once, then a pause: busybox's sh cannot pace single lines.
const script =
  `i=0; while [ $i -lt ${total} ]; do j=0; while [ $j -lt ${rate / 10} ]; do ` +
  `i=$((i+1)); j=$((j+1)); echo "line $i"; done; sleep 0.1; done; sleep 100000`;
const names = Array.from({ length: count }, (_, i) => `logbench-${i}`);
for (const name of names)
  docker("create", "--name", name, "-l", "logbench=1", "local/busybox:1", "sh", "-c", script);

const configDir = mkdtempSync(join(tmpdir(), "docklens-merged-logs-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(config, JSON.stringify({ clusters: [{ name: "bench", host }] }));
const server = await startServe({ DOCKLENS_CONFIG: config });
/** serve's CPU time so far, in seconds (utime + stime, in clock ticks of 1/100 s). */
const cpu = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const peakKiB = () =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]);

const seen = new Map(names.map((name) => [name, []]));
let outOfOrder = 0;
let last = "";
let statuses = 0;
let pending = "";
const url = new URL(`${server.url}/logs?follow=true&tail=all&filter=label%3Dlogbench%3D1`);
const cpuBefore = cpu();
const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search });
req.on("response", (res) =>
  res.on("data", (chunk) => {
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop();
    for (const text of lines) {
      const item = JSON.parse(text);
      if (item.status || item.error) {
        statuses++;
        continue;
      }
      seen.get(item.container.name)?.push(Number(item.text.split(" ")[1]));
      // Times are RFC 3339 with nine fractional digits: their text order is their time order.
      if (item.time < last) outOfOrder++;
      else last = item.time;
    }
  }),
);
req.end();
await new Promise((resolve) => setTimeout(resolve, 1000));
docker("start", ...names);
await new Promise((resolve) => setTimeout(resolve, (seconds + 5) * 1000));
const cpuSeconds = cpu() - cpuBefore;
const complete = [...seen.values()].filter(
  (got) => got.length === total && got.every((n, i) => n === i + 1),
).length;
console.log(
  `${count} containers x ${rate} lines/s x ${seconds} s (${count * total} lines): ` +
    `${complete}/${count} containers complete and in order, ` +
    `${[...seen.values()].reduce((sum, got) => sum + got.length, 0)} lines received, ` +
    `${outOfOrder} out of time order, ${statuses} status lines; ` +
    `serve CPU ${cpuSeconds.toFixed(1)} s (${((cpuSeconds / (seconds + 5)) * 100).toFixed(0)}% of a core), ` +
    `RSS ${(server.rssKiB() / 1024).toFixed(0)} MiB, peak ${(peakKiB() / 1024).toFixed(0)} MiB`,
);
req.destroy();
await server.stop();
docker("rm", "-f", ...names);
rmSync(configDir, { recursive: true, force: true });
