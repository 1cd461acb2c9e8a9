#!/usr/bin/env node
// Alerts (issue 28), measured on `docklens serve` over a throwaway engine:
// 1. Event to delivered notification: N containers (default 30) exit non-zero one after another;
//    for each, the time from the engine's `die` event (its timeNano, read from the engine's own
//    /events) to the moment a local webhook receiver has the alert; p50 and p95.
// 2. A log rule over C chatty containers (default 50, 20 lines/s each, one line in 100 matching)
//    for S seconds (default 30): serve's CPU (share of a core) and memory, against serve over the
//    same containers with no rules.
// Run by hand, as root:   node bench/alerts.mjs [--exits 30] [--containers 50] [--seconds 30]
// then stop the engine: bash scripts/engine.sh stop /tmp/docklens-bench-alerts
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runningEngine, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    exits: { type: "string", default: "30" },
    containers: { type: "string", default: "50" },
    seconds: { type: "string", default: "30" },
    dir: { type: "string", default: "/tmp/docklens-bench-alerts" },
  },
});
const [exits, count, seconds] = [values.exits, values.containers, values.seconds].map(Number);
const CHATTY =
  'i=0; while true; do i=$((i+1)); echo "line $i"; [ $((i % 100)) -eq 0 ] && echo "PANIC $i"; sleep 0.05; done';
const host = runningEngine(values.dir, count, CHATTY, "chatty=1");
const docker = (...args) =>
  execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The receiver: when each container's alert arrived.
const arrived = new Map();
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const now = performance.timeOrigin + performance.now();
    for (const alert of JSON.parse(body).alerts)
      if (alert.state === "firing" && alert.container) arrived.set(alert.container.id, now);
    res.end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

// The engine's own word for when each container died.
const died = new Map();
const events = request({
  socketPath: host.replace("unix://", ""),
  path: `/events?filters=${encodeURIComponent(JSON.stringify({ event: ["die"], label: ["alertbench=1"] }))}`,
});
let pending = "";
events.on("response", (res) =>
  res.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const event = JSON.parse(line);
      died.set(event.Actor.ID, Number(BigInt(event.timeNano) / 1000n) / 1000);
    }
  }),
);
events.on("error", () => {});
events.end();

const dir = mkdtempSync(join(tmpdir(), "docklens-bench-alerts-"));
const configOf = (rules) => {
  const path = join(dir, `config-${rules.length}.json`);
  const alerts = { receivers: [{ name: "hook", webhook: hook }], rules };
  writeFileSync(path, JSON.stringify({ clusters: [{ name: "bench", host }], alerts }));
  return path;
};
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

// 1. Latency.
const latency = await startServe({
  DOCKLENS_CONFIG: configOf([
    { name: "crashed", when: "exited", filter: ["label=alertbench=1"], cooldown: "0s" },
  ]),
});
await sleep(1000);
const ids = [];
for (let i = 0; i < exits; i++) {
  ids.push(docker("run", "-d", "-l", "alertbench=1", "local/busybox:1", "sh", "-c", "exit 3"));
  await sleep(300);
}
for (let i = 0; i < 50 && ids.some((id) => !arrived.has(id)); i++) await sleep(100);
const delays = ids
  .filter((id) => arrived.has(id) && died.has(id))
  .map((id) => arrived.get(id) - died.get(id));
await latency.stop();
docker("rm", "-f", ...ids);
console.log(
  `event to delivered notification, ${delays.length}/${exits} alerts: ` +
    `p50 ${percentile(delays, 0.5).toFixed(0)} ms, p95 ${percentile(delays, 0.95).toFixed(0)} ms, ` +
    `max ${Math.max(...delays).toFixed(0)} ms`,
);

// 2. A log rule over the chatty containers, against no rules.
async function load(rules) {
  const server = await startServe({ DOCKLENS_CONFIG: configOf(rules) });
  const cpu = () => {
    const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  await sleep(3000);
  const before = cpu();
  await sleep(seconds * 1000);
  const share = (cpu() - before) / seconds;
  const rss = server.rssKiB() / 1024;
  await server.stop();
  return { share, rss };
}
const idle = await load([]);
const logRule = await load([
  { name: "panics", when: "log", grep: "PANIC|FATAL", filter: ["label=chatty=1"] },
]);
console.log(
  `log rule over ${count} containers x 20 lines/s (${count * 20} lines/s), ${seconds} s: ` +
    `serve CPU ${(logRule.share * 100).toFixed(1)}% of a core, RSS ${logRule.rss.toFixed(0)} MiB; ` +
    `with no rules: ${(idle.share * 100).toFixed(1)}%, ${idle.rss.toFixed(0)} MiB`,
);
events.destroy();
receiver.close();
rmSync(dir, { recursive: true, force: true });
