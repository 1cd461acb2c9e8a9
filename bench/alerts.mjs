#!/usr/bin/env node
// Alerts (issue 28), measured on `docklens serve` over a throwaway engine:
// 1. Event to delivered notification: N containers (default 30) exit non-zero one after another;
//    for each, the time from the engine's `die` event (its timeNano, read from the engine's own
//    /events) to the moment a local webhook receiver has the alert; p50 and p95.
// 2. A log rule over C chatty containers (default 50, 20 lines/s each, one line in 100 matching)
//    for S seconds (default 30): serve's CPU (share of a core) and memory, against serve over the
//    same containers with no rules.
// 3. State rules over a fleet: --engines simulated engines (40; bench/simulated-engines.mjs) of
//    300 containers each (12,000) sending --events container events a second in all (500: die,
//    half of them non-zero, start, health_status) for --fleet-seconds (60): serve's CPU and RSS
//    with three rules (exited, unhealthy, restarting), the same with a label filter on each, and
//    with no rules; the load average beside each.
//    Measured 2026-11-27 (2 shared cores, 60 s), before and after issue 28's fixes
//    (bench/results/2026-11-27-alerts.md): with a label filter 33.4% of a core, 381 MiB, 8,498
//    alerts in 53 requests and 10,707 dropped (load 36-52) -> 25.3%, 305 MiB, 21,860 alerts in 12
//    requests, none dropped (load 15); without a filter 33.9%, 541 MiB, no alert in 60 s -> 25.0%,
//    334 MiB, 23,066 alerts in 13 requests; no rules 0.3-0.5%, 62-63 MiB. serve waited about as
//    long again for a core as it ran; at load 8-10 the same rules got 49.7% and 45.7% of a core
//    (+76%, +82% waiting), 23,203 and 23,161 alerts in 19 and 18 requests, none dropped.
// Run by hand, as root:   node bench/alerts.mjs [--parts 1,2,3] [--exits 30] [--containers 50]
//   [--seconds 30] [--engines 40] [--events 500] [--fleet-seconds 60]
// then stop the engines: bash scripts/engine.sh stop /tmp/docklens-bench-alerts (and /tmp/docklens-bench)
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { runningEngine, startServe } from "./lib.mjs";
import { recordBodies } from "./simulated-engines.mjs";

const { values } = parseArgs({
  options: {
    exits: { type: "string", default: "30" },
    containers: { type: "string", default: "50" },
    seconds: { type: "string", default: "30" },
    dir: { type: "string", default: "/tmp/docklens-bench-alerts" },
    parts: { type: "string", default: "1,2,3" },
    engines: { type: "string", default: "40" },
    events: { type: "string", default: "500" },
    "fleet-seconds": { type: "string", default: "60" },
  },
});
const [exits, count, seconds] = [values.exits, values.containers, values.seconds].map(Number);
const parts = new Set(values.parts.split(",").map(Number));
const CHATTY =
  'i=0; while true; do i=$((i+1)); echo "line $i"; [ $((i % 100)) -eq 0 ] && echo "PANIC $i"; sleep 0.05; done';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0].toFixed(1);

// The receiver: when each container's alert arrived, and how many notifications came.
const arrived = new Map();
let notices = 0;
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const now = performance.timeOrigin + performance.now();
    for (const alert of JSON.parse(body).alerts) {
      notices++;
      if (alert.state === "firing" && alert.container) arrived.set(alert.container.id, now);
    }
    res.end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const dir = mkdtempSync(join(tmpdir(), "docklens-bench-alerts-"));
let configs = 0;
const configOf = (rules, clusters) => {
  const path = join(dir, `config-${configs++}.json`);
  const alerts = { receivers: [{ name: "hook", webhook: hook }], rules };
  writeFileSync(path, JSON.stringify({ clusters, alerts }));
  return path;
};
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * serve with `rules` over `clusters` for `span` seconds after `warm` ones: its CPU share, the
 * share of a core it spent waiting for one (the machine is shared), RSS, notices heard, and its
 * deliveries by result.
 */
async function measure(rules, clusters, span, warm = 3) {
  const server = await startServe({ DOCKLENS_CONFIG: configOf(rules, clusters) });
  const cpu = () => {
    const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  // Seconds on a run queue, all threads: what serve wanted of a core and did not get.
  const waited = () =>
    readdirSync(`/proc/${server.pid}/task`).reduce((sum, task) => {
      const stat = readFileSync(`/proc/${server.pid}/task/${task}/schedstat`, "utf8");
      return sum + Number(stat.split(" ")[1]) / 1e9;
    }, 0);
  await sleep(warm * 1000);
  const [before, waitedBefore, heard] = [cpu(), waited(), notices];
  await sleep(span * 1000);
  const share = (cpu() - before) / span;
  const waiting = (waited() - waitedBefore) / span;
  const rss = server.rssKiB() / 1024;
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const deliveries = [
    ...metrics.matchAll(/^docklens_alert_deliveries_total\{[^}]*result="(\w+)"[^}]*\} (\d+)/gm),
  ]
    .map(([, result, n]) => `${result} ${n}`)
    .join(", ");
  const dropped = [...metrics.matchAll(/^docklens_alert_notices_dropped_total\{[^}]*\} (\d+)/gm)]
    .map(([, n]) => Number(n))
    .reduce((sum, n) => sum + n, 0);
  const lost = [...metrics.matchAll(/^docklens_alert_lookup_failures_total\{[^}]*\} (\d+)/gm)]
    .map(([, n]) => Number(n))
    .reduce((sum, n) => sum + n, 0);
  await server.stop();
  return { share, waiting, rss, load: load(), notices: notices - heard, deliveries, dropped, lost };
}
const figure = ({ share, waiting, rss, load: average }) =>
  `${(share * 100).toFixed(1)}% of a core (${(waiting * 100).toFixed(0)}% more waiting for one), ` +
  `RSS ${rss.toFixed(0)} MiB (load ${average})`;
const told = ({ notices: heard, deliveries, dropped, lost }) =>
  `${heard} alerts delivered${deliveries ? ` (requests: ${deliveries})` : ""}, ` +
  `${dropped} notices dropped, ${lost} events lost to failed lookups`;

if (parts.has(1) || parts.has(2)) {
  const host = runningEngine(values.dir, count, CHATTY, "chatty=1");
  const clusters = [{ name: "bench", host }];
  const docker = (...args) =>
    execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();

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

  // 1. Latency.
  if (parts.has(1)) {
    const latency = await startServe({
      DOCKLENS_CONFIG: configOf(
        // No group interval: each alert's own latency, not the wait a burst's grouping adds.
        [
          {
            name: "crashed",
            when: "exited",
            filter: ["label=alertbench=1"],
            groupInterval: "0s",
          },
        ],
        clusters,
      ),
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
  }

  // 2. A log rule over the chatty containers, against no rules.
  if (parts.has(2)) {
    const idle = await measure([], clusters, seconds);
    const logRule = await measure(
      [{ name: "panics", when: "log", grep: "PANIC|FATAL", filter: ["label=chatty=1"] }],
      clusters,
      seconds,
    );
    console.log(
      `log rule over ${count} containers x 20 lines/s (${count * 20} lines/s), ${seconds} s: ` +
        `serve ${figure(logRule)}; with no rules: ${figure(idle)}`,
    );
  }
  events.destroy();
}

// 3. State rules over simulated engines sending events, against no rules.
if (parts.has(3)) {
  const [engines, perSecond, span] = [values.engines, values.events, values["fleet-seconds"]].map(
    Number,
  );
  const bodies = await recordBodies("/tmp/docklens-bench", 300, false);
  const worker = new Worker(new URL("./simulated-engines.mjs", import.meta.url), {
    workerData: { bodies, delays: Array(engines).fill(0), eventsPerSecond: perSecond },
  });
  const { ports } = (await once(worker, "message"))[0];
  const clusters = ports.map((port, i) => ({ name: `sim-${i + 1}`, host: "127.0.0.1", port }));
  const total = engines * JSON.parse(bodies["/containers/json"].body).length;
  const rules = (filter) =>
    ["exited", "unhealthy", "restarting"].map((when) => ({
      name: when,
      when,
      ...(filter ? { filter: ["label=bench=1"] } : {}),
    }));
  try {
    // Long enough a warm-up for the first lists of every engine.
    const none = await measure([], clusters, span, 10);
    const state = await measure(rules(false), clusters, span, 10);
    const filtered = await measure(rules(true), clusters, span, 10);
    console.log(
      `${engines} engines, ${total} containers, ${perSecond} events/s, ${span} s: ` +
        `3 state rules: serve ${figure(state)}, ${told(state)}; ` +
        `the same with a label filter: ${figure(filtered)}, ${told(filtered)}; ` +
        `no rules: ${figure(none)}`,
    );
  } finally {
    worker.postMessage("close");
    await Promise.race([once(worker, "exit"), sleep(2000)]);
    await worker.terminate();
  }
}
receiver.close();
rmSync(dir, { recursive: true, force: true });
