#!/usr/bin/env node
// grep must not stall the server: `docklens serve` over one engine with a container that wrote
// 200 lines of 10 KiB (`a` x 10240 then `b`); the latency of `/healthz` (R sequential requests,
// default 200), alone and then while K clients (default 4) loop on `GET /logs` with the
// pathological `grep=(a+)+$`; prints medians and p95s. Run by hand, as root:
//   node bench/grep.mjs [--requests 200] [--clients 4] [--dir /tmp/docklens-bench-grep]
// then stop the engine: bash scripts/engine.sh stop /tmp/docklens-bench-grep
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, runningEngine, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "200" },
    clients: { type: "string", default: "4" },
    dir: { type: "string", default: "/tmp/docklens-bench-grep" },
  },
});
const [requests, clients] = [values.requests, values.clients].map(Number);
const LINES = 200;
const script =
  `l="$(head -c 10240 /dev/zero | tr '\\0' a)b"; i=0; ` +
  `while [ $i -lt ${LINES} ]; do echo "$l"; i=$((i+1)); done; sleep 100000`;
const host = runningEngine(values.dir, 1, script, "grepbench=1");
const configDir = mkdtempSync(join(tmpdir(), "docklens-grep-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(config, JSON.stringify({ clusters: [{ name: "bench", host }] }));
const server = await startServe({ DOCKLENS_CONFIG: config });
const logs = `${server.url}/logs?filter=label%3Dgrepbench%3D1&tail=all`;

// Wait (at most 30 s) until the container has written every line.
for (let waited = 0; ; waited++) {
  const { lines } = await (await fetch(logs)).json();
  if (lines.length >= LINES && lines.every((line) => line.text.length === 10241)) break;
  if (waited >= 60) throw new Error(`the container wrote ${lines.length} lines`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** `requests` sequential GET /healthz (at most 60 s): median and p95 in ms. */
async function healthz() {
  const times = [];
  const deadline = Date.now() + 60_000;
  while (times.length < requests && Date.now() < deadline) {
    const started = performance.now();
    const res = await fetch(`${server.url}/healthz`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/healthz ${res.status}`);
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { n: times.length, median: median(times), p95: sorted[Math.floor(sorted.length * 0.95)] };
}

const alone = await healthz();
let stop = false;
const greps = [];
const client = async () => {
  while (!stop) {
    const started = performance.now();
    const res = await fetch(`${logs}&grep=(a%2B)%2B%24`);
    const { lines } = await res.json();
    if (res.status !== 200 || lines.length !== 0) throw new Error(`grep: ${res.status}`);
    greps.push(performance.now() - started);
  }
};
const running = Array.from({ length: clients }, client);
await new Promise((resolve) => setTimeout(resolve, 500));
const loaded = await healthz();
stop = true;
await Promise.all(running);

const f = (ms) => ms.toFixed(1);
console.log(
  `/healthz alone: median ${f(alone.median)} ms, p95 ${f(alone.p95)} ms (${alone.n} requests); ` +
    `beside ${clients} clients looping on grep=(a+)+$ over ${LINES} lines of 10 KiB: ` +
    `median ${f(loaded.median)} ms, p95 ${f(loaded.p95)} ms (${loaded.n} requests); ` +
    `${greps.length} grep requests, median ${f(median(greps))} ms each`,
);
await server.stop();
rmSync(configDir, { recursive: true, force: true });
