#!/usr/bin/env node
// Memory of `docklens serve` with many clients on /events: opens N event streams (default 100)
// over the bench engine, makes the engine send events (containers created and removed), and
// prints serve's RSS before, with the streams open, and after the events went through. Run by
// hand, as root:   node bench/events.mjs [--streams 100] [--events 50]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchEngine, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "100" },
    events: { type: "string", default: "50" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const { host } = benchEngine(values.dir, 0);
const configDir = mkdtempSync(join(tmpdir(), "docklens-events-"));
const config = join(configDir, "docklens.config.json");
writeFileSync(config, JSON.stringify({ clusters: [{ name: "bench", host }] }));
const server = await startServe({ DOCKLENS_CONFIG: config });
const mib = (kib) => (kib / 1024).toFixed(1);
const idle = server.rssKiB();

const url = new URL(`${server.url}/events?filter=type%3Dcontainer`);
const received = new Array(Number(values.streams)).fill(0);
const requests = received.map(
  (_, index) =>
    new Promise((resolve) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search },
        (res) => {
          res.on("data", (chunk) => (received[index] += chunk.toString().split("\n").length - 1));
          resolve(req);
        },
      );
      req.end();
    }),
);
const clients = await Promise.all(requests);
await new Promise((resolve) => setTimeout(resolve, 1000));
const open = server.rssKiB();
const docker = (...args) =>
  execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
for (let i = 0; i < Number(values.events); i++)
  docker("rm", docker("create", "--label", "bench=events", "local/busybox:1", "true"));
await new Promise((resolve) => setTimeout(resolve, 2000));
const after = server.rssKiB();
console.log(
  `${values.streams} event streams on one engine; ${values.events} containers created and removed (${values.events * 2} events each stream)`,
);
console.log(
  `serve RSS: ${mib(idle)} MiB idle, ${mib(open)} MiB with the streams open, ${mib(after)} MiB after the events`,
);
console.log(
  `events received per stream: min ${Math.min(...received)}, max ${Math.max(...received)}`,
);
clients.forEach((req) => req.destroy());
await server.stop();
rmSync(configDir, { recursive: true, force: true });
