#!/usr/bin/env node
// What N viewers of `docklens serve` cost the engine against one viewer, and how fresh its lists
// are (issue 25). Each viewer follows /events and polls /list/bench/containers every 250 ms, as
// a dashboard tab does, for `--seconds` while a container starts and stops every second; a
// recording link in front of the bench engine counts the engine requests and /events streams.
// Then freshness: a container started on the engine, seen in a served list (p50/p95).
// Run by hand, as root:   node bench/watch.mjs [--viewers 20] [--seconds 15] [--starts 20]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchEngine, delayProxy, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    viewers: { type: "string", default: "20" },
    seconds: { type: "string", default: "15" },
    starts: { type: "string", default: "20" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const { host, containers } = benchEngine(values.dir, 100);
const docker = (...args) =>
  execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (list, p) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * p)];

/** serve over a fresh recording link; `viewers` dashboard-like clients for the given time. */
async function run(viewers) {
  const link = await delayProxy({ path: host.replace("unix://", "") }, 0);
  const dir = mkdtempSync(join(tmpdir(), "docklens-watch-"));
  const config = join(dir, "docklens.config.json");
  writeFileSync(
    config,
    JSON.stringify({ clusters: [{ name: "bench", host: "127.0.0.1", port: link.port }] }),
  );
  const server = await startServe({ DOCKLENS_CONFIG: config });
  const url = new URL(server.url);
  const streams = Array.from({ length: viewers }, () => {
    const req = request({ host: url.hostname, port: url.port, path: "/events" }, (res) =>
      res.resume(),
    );
    req.end();
    return req;
  });
  let served = 0;
  let stop = false;
  const poll = async () => {
    while (!stop) {
      await (await fetch(`${server.url}/list/bench/containers`)).arrayBuffer();
      served++;
      await sleep(250);
    }
  };
  const churner = docker("run", "-d", "-l", "bench=watch", "local/busybox:1", "sleep", "3600");
  const churn = (async () => {
    for (let i = 0; !stop; i++) {
      docker(...(i % 2 ? ["start"] : ["stop", "-t", "0"]), churner);
      await sleep(1000);
    }
  })();
  const polls = Array.from({ length: viewers }, poll);
  await sleep(Number(values.seconds) * 1000);
  stop = true;
  await Promise.all([...polls, churn]);
  // Freshness: started on the engine, seen in a served list.
  const fresh = [];
  if (viewers === 1)
    for (let i = 0; i < Number(values.starts); i++) {
      const started = performance.now();
      const id = docker("run", "-d", "-l", "bench=watch", "local/busybox:1", "sleep", "3600");
      for (;;) {
        const body = await (await fetch(`${server.url}/list/bench/containers`)).json();
        if (body.containers.some((item) => item.Id === id && item.State === "running")) break;
        await sleep(5);
      }
      fresh.push(performance.now() - started);
    }
  for (const req of streams) req.destroy();
  await server.stop();
  link.close();
  rmSync(dir, { recursive: true, force: true });
  docker("rm", "-f", ...docker("ps", "-aq", "--filter", "label=bench=watch").split("\n"));
  const requests = link.requests.filter((path) => !/\/events/.test(path)).length;
  const events = link.requests.filter((path) => /\/events/.test(path)).length;
  return { viewers, served, requests, events, fresh };
}

const one = await run(1);
const many = await run(Number(values.viewers));
const ms = (value) => `${value.toFixed(0)} ms`;
console.log(`engine with ${containers} containers, ${values.seconds} s, one start/stop a second`);
for (const { viewers, served, requests, events } of [one, many])
  console.log(
    `${String(viewers).padStart(3)} viewer(s): ${served} lists served, ${requests} engine requests, ${events} engine /events stream(s)`,
  );
console.log(
  `engine requests, ${many.viewers} viewers / 1: ${(many.requests / one.requests).toFixed(2)}x`,
);
console.log(
  `freshness (docker run to a served list saying running), ${one.fresh.length} starts: ` +
    `p50 ${ms(percentile(one.fresh, 0.5))}, p95 ${ms(percentile(one.fresh, 0.95))}`,
);
