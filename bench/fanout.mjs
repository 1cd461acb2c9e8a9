#!/usr/bin/env node
// Fan-out: `/list/cluster` over 40 clusters, each an engine behind a loopback link that adds
// 60 ms (a proxy delaying what the engine sends), against `/detail/cluster/:id` of one of them;
// and `ps` across them (`/list/containers`) against one cluster's `/list/:cluster/containers`.
// All 40 links lead to one throwaway engine. Prints medians and the ratio. Run by hand, as root:
//   node bench/fanout.mjs [--clusters 40] [--delay 60] [--runs 15]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchEngine, delayProxy, median, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    clusters: { type: "string", default: "40" },
    delay: { type: "string", default: "60" },
    runs: { type: "string", default: "15" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const { host } = benchEngine(values.dir, 0);
const proxies = await Promise.all(
  Array.from({ length: Number(values.clusters) }, () =>
    delayProxy({ path: host.replace("unix://", "") }, Number(values.delay)),
  ),
);
const configDir = mkdtempSync(join(tmpdir(), "docklens-fanout-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(
  config,
  JSON.stringify({
    clusters: proxies.map((proxy, i) => ({
      name: `edge-${i + 1}`,
      host: "127.0.0.1",
      port: proxy.port,
    })),
  }),
);
const server = await startServe({ DOCKLENS_CONFIG: config });

async function time(path) {
  const start = performance.now();
  const response = await fetch(server.url + path);
  const body = await response.json();
  const ms = performance.now() - start;
  if (
    response.status !== 200 ||
    body.clusters?.some((cluster) => cluster.error) ||
    body.errors?.length ||
    body.error
  )
    throw new Error(`${path}: ${JSON.stringify(body).slice(0, 300)}`);
  return ms;
}

/**
 * The floor: the same 80 engine calls (GET /info and GET /volumes of every cluster) sent at once
 * straight through the links, without docklens. Here all 40 links lead to one engine on two
 * cores, so the engine's own work, not the links, sets this time.
 */
async function engineAlone() {
  const start = performance.now();
  await Promise.all(
    proxies.flatMap((proxy) =>
      ["/info", "/volumes"].map((path) =>
        fetch(`http://127.0.0.1:${proxy.port}${path}`).then((r) => r.arrayBuffer()),
      ),
    ),
  );
  return performance.now() - start;
}

/**
 * CPU time the engine has used so far, in ms: dockerd with the children it has waited for (each
 * GET /info runs `runc --version` and `docker-init --version`) and its containerd. Linux only.
 */
function engineCpuMs() {
  const dockerd = readFileSync(join(values.dir, "docker.pid"), "utf8").trim();
  const children = execFileSync("pgrep", ["-P", dockerd], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  const ticks = [dockerd, ...children].reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + fields.slice(11, 15).reduce((a, b) => a + Number(b), 0); // utime stime cutime cstime
  }, 0);
  return ticks * (1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })));
}

/** The floor of `ps`: every cluster's container list asked at once straight through the links, and read whole. */
async function containersAlone() {
  const start = performance.now();
  await Promise.all(
    proxies.map((proxy) =>
      fetch(`http://127.0.0.1:${proxy.port}/containers/json?all=1`).then((r) => r.json()),
    ),
  );
  return performance.now() - start;
}

const samples = { all: [], one: [], floor: [], ps: [], psOne: [], psFloor: [], metrics: [] };

/** A scrape of /metrics: every engine's info and container list, one fan-out. */
async function scrape() {
  const start = performance.now();
  const text = await fetch(`${server.url}/metrics`).then((r) => r.text());
  if (/docklens_engine_up\{[^}]*\} 0/.test(text))
    throw new Error("a cluster was down during the scrape");
  return performance.now() - start;
}
let engineCpu = 0;
await time("/list/cluster"); // first connections
for (let i = 0; i < Number(values.runs); i++) {
  const before = engineCpuMs();
  samples.all.push(await time("/list/cluster"));
  engineCpu += engineCpuMs() - before;
  samples.one.push(await time("/detail/cluster/1"));
  samples.floor.push(await engineAlone());
  samples.ps.push(await time("/list/containers"));
  samples.psOne.push(await time("/list/1/containers"));
  samples.psFloor.push(await containersAlone());
  samples.metrics.push(await scrape());
}
await server.stop();
proxies.forEach((proxy) => proxy.close());
rmSync(configDir, { recursive: true, force: true });
const a = median(samples.all);
const b = median(samples.one);
const floor = median(samples.floor);
console.log(
  `${values.clusters} clusters behind links adding ${values.delay} ms; ${values.runs} runs each, alternating`,
);
console.log(
  `/list/cluster        median ${a.toFixed(1)} ms  (min ${Math.min(...samples.all).toFixed(1)})`,
);
console.log(
  `/detail/cluster/1    median ${b.toFixed(1)} ms  (min ${Math.min(...samples.one).toFixed(1)})`,
);
console.log(
  `engine alone, the same 80 calls at once  median ${floor.toFixed(1)} ms  (min ${Math.min(...samples.floor).toFixed(1)})`,
);
const cpu = engineCpu / Number(values.runs);
const cores = availableParallelism();
console.log(
  `engine CPU per /list/cluster: ${cpu.toFixed(0)} ms; on ${cores} cores that alone takes at least ${(cpu / cores).toFixed(0)} ms, plus the ${values.delay} ms link`,
);
console.log(
  `fan-out ratio: ${(a / b).toFixed(2)} (aim at most 1.5); against the engine-alone floor: ${(a / floor).toFixed(2)}`,
);
const ps = median(samples.ps);
const psOne = median(samples.psOne);
const psFloor = median(samples.psFloor);
console.log(
  `ps: /list/containers over ${values.clusters} clusters  median ${ps.toFixed(1)} ms; /list/1/containers  median ${psOne.toFixed(1)} ms; ratio ${(ps / psOne).toFixed(2)}`,
);
console.log(
  `ps floor, the same ${values.clusters} container lists asked at once straight through the links  median ${psFloor.toFixed(1)} ms; docklens against it: ${(ps / psFloor).toFixed(2)}`,
);
console.log(
  `/metrics scrape over ${values.clusters} clusters  median ${median(samples.metrics).toFixed(1)} ms  (min ${Math.min(...samples.metrics).toFixed(1)})`,
);
