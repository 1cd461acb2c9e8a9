#!/usr/bin/env node
// What an idle `docklens serve` costs the engine (issue 25): one dashboard-like viewer reads the
// lists and follows /events for a few seconds, then leaves; for `--minutes` after that, a
// recording link in front of the bench engine counts what serve still asks, minute by minute,
// beside serve's RSS and the machine's load average. Goal: 0 requests a minute after the grace
// period (30 s), as the hub closes its subscription and the mirror.
// Run by hand, as root:   node bench/idle.mjs [--minutes 10]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchEngine, delayProxy, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    dir: { type: "string", default: "/tmp/docklens-bench-idle" },
  },
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0].toFixed(1);
const { host, containers } = benchEngine(values.dir, 100);
const link = await delayProxy({ path: host.replace("unix://", "") }, 0);
const dir = mkdtempSync(join(tmpdir(), "docklens-idle-"));
const config = join(dir, "docklens.config.json");
writeFileSync(
  config,
  JSON.stringify({ clusters: [{ name: "bench", host: "127.0.0.1", port: link.port }] }),
);
const server = await startServe({ DOCKLENS_CONFIG: config });
const url = new URL(server.url);

// The viewer: what a dashboard tab asks, then it is closed.
const events = request({ host: url.hostname, port: url.port, path: "/events" }, (res) =>
  res.resume(),
);
events.end();
for (let i = 0; i < 20; i++) {
  for (const path of ["/list/bench/containers", "/list/cluster", "/list/containers"])
    await (await fetch(`${server.url}${path}`)).arrayBuffer();
  await sleep(250);
}
events.destroy();
console.log(
  `engine with ${containers} containers; the viewer left after ${link.requests.length} engine requests; ` +
    `RSS ${(server.rssKiB() / 1024).toFixed(1)} MiB, load ${load()}`,
);

let seen = link.requests.length;
for (let minute = 1; minute <= Number(values.minutes); minute++) {
  await sleep(60_000);
  const asked = link.requests.slice(seen);
  seen = link.requests.length;
  console.log(
    `minute ${String(minute).padStart(2)}: ${asked.length} engine requests` +
      `${asked.length ? ` (${[...new Set(asked.map((path) => path.replace(/\?.*/, "")))].join(", ")})` : ""}, ` +
      `RSS ${(server.rssKiB() / 1024).toFixed(1)} MiB, load ${load()}`,
  );
}
await server.stop();
link.close();
rmSync(dir, { recursive: true, force: true });
