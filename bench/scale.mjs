#!/usr/bin/env node
// Scale: `/list/cluster`, `ps` across all clusters (`/list/containers`) and `/metrics` of
// `docklens serve` over many simulated engines, at several engine counts (default 50, 200, 500).
// Each simulated engine is a loopback HTTP server (all of them in a worker thread of this
// process: bench/simulated-engines.mjs) that answers, after --delay ms, the bodies recorded once
// at start from the throwaway bench engine (bench/lib.mjs): `/info`, `/volumes`,
// `/containers/json` cut to its first --containers items, and a few more; matched by path,
// whatever the query or `/v1.xx` prefix.
// The first engine, in every count, is the slowest: it answers after --slowest ms.
// For each count it prints the median time (to the last byte) of each route; the first
// `/list/cluster` (cold: serve makes every engine client); a floor, the engine calls of one
// scrape made at once by the bench itself; serve's RSS idle after start and after the runs (the
// high-water of the runs, garbage included, not what serve keeps); its open descriptors; and its
// CPU per request. Then how time, CPU and memory grow per engine, and which engine calls each
// route made. Time should follow the slowest engine, not their number, and memory grow linearly
// and little. Every answer must be 200 with no cluster failed, or the bench stops. As root:
//   node bench/scale.mjs [--engines 50,200,500] [--delay 50] [--slowest 100] [--runs 7]
// Needs about 10 open files per engine (ulimit -n). The bench engine is only needed for the
// recording; it is left running, as the other benchmarks leave it (they may be using it), unless
// --stop-engine is given and this run started it.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { median, startServe } from "./lib.mjs";
import { recordBodies } from "./simulated-engines.mjs";

const ROUTES = ["/list/cluster", "/list/containers", "/metrics"];
async function main() {
  const { values } = parseArgs({
    options: {
      engines: { type: "string", default: "50,200,500" },
      delay: { type: "string", default: "50" },
      slowest: { type: "string", default: "100" },
      runs: { type: "string", default: "7" },
      containers: { type: "string", default: "20" },
      dir: { type: "string", default: "/tmp/docklens-bench" },
      "stop-engine": { type: "boolean", default: false },
    },
  });
  const counts = values.engines.split(",").map(Number);
  const [delay, slowest, runs, perEngine] = [
    values.delay,
    values.slowest,
    values.runs,
    values.containers,
  ].map(Number);
  if (counts.some((count) => !(count >= 1)) || !(runs >= 1) || !(perEngine >= 1)) {
    throw new Error("--engines, --runs and --containers want positive integers");
  }
  const most = Math.max(...counts);

  // Descriptors: this process holds every engine's listening socket and its end of serve's
  // connections (a /metrics scrape keeps 3 open to each engine), and both ends of the direct
  // calls' 3 (kept alive too); serve holds its own 3 per engine.
  const limits = readFileSync("/proc/self/limits", "utf8");
  const openFiles = Number(/Max open files\s+(\d+|unlimited)/.exec(limits)[1]);
  const needed = most * 10 + 200;
  if (needed > openFiles) {
    throw new Error(
      `${most} engines need about ${needed} open files; the limit is ${openFiles}: raise ulimit -n`,
    );
  }

  const state = { serve: undefined, worker: undefined, configDir: undefined };
  const cleanup = async () => {
    const { serve, worker, configDir } = state;
    Object.assign(state, { serve: undefined, worker: undefined, configDir: undefined });
    // A serve that died already never exits again: do not wait for it for ever.
    if (serve) await Promise.race([serve.stop(), sleep(3000)]);
    if (worker) {
      worker.postMessage("close");
      await Promise.race([once(worker, "exit"), sleep(2000)]);
      await worker.terminate();
    }
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => cleanup().finally(() => process.exit(130)));
  }

  try {
    const bodies = await recordBodies(values.dir, perEngine, values["stop-engine"]);
    state.worker = new Worker(new URL("./simulated-engines.mjs", import.meta.url), {
      workerData: {
        bodies,
        delays: Array.from({ length: most }, (_, i) => (i === 0 ? slowest : delay)),
      },
    });
    const { worker } = state;
    const ask = async (message) => {
      worker.postMessage(message);
      return (await once(worker, "message"))[0];
    };
    const { ports } = (await once(worker, "message"))[0];
    state.configDir = mkdtempSync(join(tmpdir(), "docklens-scale-"));

    const rows = [];
    let callsPerRequest;
    for (const count of counts) {
      const config = join(state.configDir, `docklens-${count}.json`);
      const clusters = ports
        .slice(0, count)
        .map((port, i) => ({ name: `sim-${i + 1}`, host: "127.0.0.1", port }));
      writeFileSync(config, JSON.stringify({ clusters }));
      state.serve = await startOrFail(config);
      const { serve } = state;
      await sleep(500);
      const idle = serve.rssKiB();
      await ask("calls"); // None yet; clears the count.
      const checks = checksFor(count, perEngine);
      const cpu = Object.fromEntries(ROUTES.map((route) => [route, []]));
      const time = async (route) => {
        const before = cpuMs(serve.pid);
        const ms = await timeRoute(serve.url, route, checks[route]);
        cpu[route].push(cpuMs(serve.pid) - before);
        return ms;
      };
      // The first round opens every engine's connections; the first /list/cluster, cold, also
      // makes every engine client.
      const cold = await time("/list/cluster");
      const calls = { "/list/cluster": (await ask("calls")).calls };
      for (const route of ROUTES.slice(1)) {
        await time(route);
        calls[route] = (await ask("calls")).calls;
      }
      callsPerRequest ??= describeCalls(calls, count, bodies);
      const samples = Object.fromEntries(ROUTES.map((route) => [route, []]));
      for (const route of ROUTES) cpu[route].length = 0; // The first round's is not a sample.
      const direct = [];
      for (let i = 0; i < runs; i++) {
        for (const route of ROUTES) samples[route].push(await time(route));
        direct.push(await directly(ports.slice(0, count)));
      }
      await sleep(200);
      const after = serve.rssKiB();
      const fds = readdirSync(`/proc/${serve.pid}/fd`).length;
      state.serve = undefined;
      await serve.stop();
      const ms = ROUTES.map((route) => median(samples[route]));
      const cpuMedians = ROUTES.map((route) => median(cpu[route]));
      rows.push({ count, cold, ms, direct: median(direct), cpu: cpuMedians, idle, after, fds });
    }
    report({ rows, delay, slowest, runs, perEngine, openFiles, callsPerRequest });
  } finally {
    await cleanup();
  }
}

/** startServe, or an error when serve has not said where it listens within 20 s (it died, say). */
async function startOrFail(config) {
  let timer;
  const late = new Promise((_, reject) => {
    const message = "docklens serve did not start within 20 s (is dist/ built? npm run build)";
    timer = setTimeout(() => reject(new Error(message)), 20_000);
  });
  const starting = startServe({ DOCKLENS_CONFIG: config });
  try {
    return await Promise.race([starting, late]);
  } catch (error) {
    // Should it start after all, stop it.
    starting.then((serve) => serve.stop()).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Time one request to the last byte; then check it is 200 and no cluster failed, or throw. */
async function timeRoute(url, route, check) {
  const start = performance.now();
  const response = await fetch(url + route);
  const text = await response.text();
  const ms = performance.now() - start;
  if (response.status !== 200) {
    throw new Error(`${route}: ${response.status}: ${text.slice(0, 300)}`);
  }
  check(text);
  return ms;
}

/**
 * The floor: the engine calls of one /metrics scrape (/info, /volumes and /containers/json of
 * every engine) sent at once by this process straight to the simulated engines, each read whole.
 */
async function directly(ports) {
  const start = performance.now();
  const paths = ["/info", "/volumes", "/containers/json?all=true"];
  const reads = ports.flatMap((port) =>
    paths.map((path) => fetch(`http://127.0.0.1:${port}${path}`).then((res) => res.arrayBuffer())),
  );
  await Promise.all(reads);
  return performance.now() - start;
}

let tickMs;

/** CPU time process `pid` has used so far (user and system), in ms. Linux only. */
function cpuMs(pid) {
  tickMs ??= 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * tickMs;
}

/** What a complete answer of each route holds over `count` engines of `perEngine` containers. */
function checksFor(count, perEngine) {
  const fail = (route, what, first) => {
    throw new Error(
      `${route} over ${count} engines: ${what}${first ? `; first: ${JSON.stringify(first)}` : ""}`,
    );
  };
  return {
    "/list/cluster": (text) => {
      const { clusters } = JSON.parse(text);
      const failed = clusters.filter((cluster) => cluster.error);
      if (failed.length) fail("/list/cluster", `${failed.length} clusters failed`, failed[0]);
      if (clusters.length !== count) fail("/list/cluster", `${clusters.length} clusters`);
    },
    "/list/containers": (text) => {
      const { containers, errors } = JSON.parse(text);
      if (errors.length) fail("/list/containers", `${errors.length} clusters failed`, errors[0]);
      const expected = count * perEngine;
      if (containers.length !== expected) {
        fail("/list/containers", `${containers.length} containers, not ${expected}`);
      }
    },
    "/metrics": (text) => {
      const down = text.match(/^docklens_engine_up\{.*\} 0$/gm) ?? [];
      const up = text.match(/^docklens_engine_up\{.*\} 1$/gm) ?? [];
      if (down.length) fail("/metrics", `${down.length} engines down`, down[0]);
      if (up.length !== count) fail("/metrics", `${up.length} engines up`);
      // An engine whose container list failed is still up: it has no container counts, and its
      // failures are counted (since serve started).
      const listed = text.match(/^docklens_containers\{[^}]*state="running"\} /gm) ?? [];
      if (listed.length !== count) fail("/metrics", `container counts of ${listed.length} engines`);
      const failures = text.match(/^docklens_engine_call_failures_total\{.*$/gm) ?? [];
      if (failures.length) {
        fail("/metrics", `${failures.length} engines with failed calls`, failures[0]);
      }
    },
  };
}

/** `/list/cluster: /info 1, /volumes 1` per engine; throws on a path nothing was recorded for. */
function describeCalls(calls, count, bodies) {
  return ROUTES.map((route) => {
    const paths = Object.entries(calls[route]);
    const unknown = paths.filter(([path]) => !bodies[path]).map(([path]) => path);
    if (unknown.length) {
      throw new Error(`${route} asked the engines for ${unknown.join(", ")}: record it`);
    }
    return `${route}: ${paths.map(([path, n]) => `${path} ${+(n / count).toFixed(2)}`).join(", ")}`;
  });
}

function report({ rows, delay, slowest, runs, perEngine, openFiles, callsPerRequest }) {
  const mib = (kib) => (kib / 1024).toFixed(1);
  const columns = [
    ["engines", (row) => String(row.count)],
    ["cold ms", (row) => row.cold.toFixed(1)],
    ...ROUTES.map((route, i) => [`${route} ms`, (row) => row.ms[i].toFixed(1)]),
    ["direct ms", (row) => row.direct.toFixed(1)],
    ["RSS idle MiB", (row) => mib(row.idle)],
    ["RSS after MiB", (row) => mib(row.after)],
    ["serve fds", (row) => String(row.fds)],
  ];
  console.log(
    `simulated engines of ${perEngine} containers answering after ${delay} ms, the slowest after ` +
      `${slowest} ms; medians of ${runs} runs, to the last byte; open files limit ${openFiles}`,
  );
  const cells = [
    columns.map(([title]) => title),
    ...rows.map((row) => columns.map(([, cell]) => cell(row))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  for (const line of cells) console.log(line.map((cell, i) => cell.padStart(widths[i])).join("  "));
  console.log(`slowest engine's delay: ${slowest} ms (every route waits for it at least once)`);
  console.log("direct: the engine calls of one /metrics scrape made at once by the bench itself");
  console.log("serve's CPU per request, median ms:");
  for (const row of rows) {
    const cpu = ROUTES.map((route, i) => `${route} ${row.cpu[i].toFixed(0)}`);
    console.log(`  ${row.count} engines: ${cpu.join(", ")}`);
  }
  if (rows.length > 1) {
    const xs = rows.map((row) => row.count);
    const growth = (value) => slope(xs, rows.map(value));
    const per = (value) =>
      ROUTES.map((route, i) => `${route} ${growth((row) => value(row)[i]).toFixed(3)}`);
    console.log(`per added engine (least squares over ${xs.join(", ")} engines):`);
    console.log(`  time, ms: ${per((row) => row.ms).join(", ")}`);
    console.log(`  serve CPU, ms: ${per((row) => row.cpu).join(", ")}`);
    const [after, idle] = [growth((row) => row.after), growth((row) => row.idle)];
    console.log(`  serve RSS: ${after.toFixed(1)} KiB after the runs, ${idle.toFixed(1)} KiB idle`);
    console.log(`  serve open descriptors: ${growth((row) => row.fds).toFixed(2)}`);
  }
  console.log("engine calls per request and engine:");
  for (const line of callsPerRequest) console.log(`  ${line}`);
}

/** Least-squares slope of `ys` over `xs`. */
function slope(xs, ys) {
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const [mx, my] = [mean(xs), mean(ys)];
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0);
  return num / xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

await main();
