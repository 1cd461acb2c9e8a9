#!/usr/bin/env node
// Throughput of `docklens serve` on /list/:cluster/containers of a 300-container engine at 16
// concurrent clients, against the same number of clients asking the engine's API directly
// (GET /containers/json?all=1 on its socket). docklens is asked three ways, side by side: without
// Accept-Encoding, with `Accept-Encoding: gzip` and with `br` (the clients count the compressed
// bytes and never decode them, as the engine's are never parsed). Repeats, prints medians, the
// ratios, the body's size in each coding, and the server's memory before and after. Run by hand,
// as root:  node bench/serve.mjs [--seconds 5]
import { request, Agent } from "node:http";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { benchEngine, median, startServe } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "300" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    clients: { type: "string", default: "16" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const { host, containers } = benchEngine(values.dir, Number(values.containers));
const socketPath = host.replace("unix://", "");

const latencies = new Map();
/** `clients` loops asking `target` for `seconds`; resolves with requests per second. */
async function load(target) {
  const times = latencies.get(target) ?? [];
  latencies.set(target, times);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const get = () =>
    new Promise((resolve, reject) => {
      const req = request({ agent, ...target, method: "GET" }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        res.resume().on("end", resolve);
      });
      req.on("error", reject).end();
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const start = performance.now();
        await get();
        times.push(performance.now() - start);
        done++;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

/** One response of `target`: its Content-Encoding and its size on the wire. */
const sizeOf = (target) =>
  new Promise((resolve, reject) => {
    request({ ...target, method: "GET" }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => resolve(`${res.headers["content-encoding"] ?? "identity"} ${bytes} B`));
    })
      .on("error", reject)
      .end();
  });

const server = await startServe({ DOCKER_HOST: host, DOCKLENS_CONFIG: "" });
const url = new URL(server.url);
const viaDocklens = (encoding) => ({
  host: url.hostname,
  port: Number(url.port),
  path: "/list/local/containers",
  headers: encoding ? { "accept-encoding": encoding } : {},
});
const runs = {
  "docklens serve /list/local/containers       ": viaDocklens(undefined),
  "docklens serve, Accept-Encoding: gzip       ": viaDocklens("gzip"),
  "docklens serve, Accept-Encoding: br         ": viaDocklens("br"),
  "engine GET /containers/json?all=1           ": { socketPath, path: "/containers/json?all=1" },
};
const sizes = await Promise.all([undefined, "gzip", "br"].map((e) => sizeOf(viaDocklens(e))));
const rssBefore = server.rssKiB();
const results = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++)
  for (const [name, target] of Object.entries(runs)) results[name].push(await load(target));
const rssAfter = server.rssKiB();
await server.stop();
const medians = Object.fromEntries(Object.entries(results).map(([name, x]) => [name, median(x)]));
const [plain, gzipped, brotli, engine] = Object.values(medians);
console.log(
  `containers: ${containers}; ${clients} clients; ${values.rounds} rounds of ${seconds} s each, alternating`,
);
console.log(`body of /list/local/containers: ${sizes.join(", ")}`);
for (const [name, x] of Object.entries(results))
  console.log(
    `${name} median ${medians[name].toFixed(0)} req/s  (${x.map((v) => v.toFixed(0)).join(", ")}), ` +
      `p50 ${median(latencies.get(runs[name])).toFixed(1)} ms`,
  );
const served = [plain, gzipped, brotli].reduce((sum, rate) => sum + rate, 0);
console.log(
  `server memory: ${(rssBefore / 1024).toFixed(0)} MiB before, ${(rssAfter / 1024).toFixed(0)} MiB after ${Math.round(served * seconds * Number(values.rounds))} requests`,
);
console.log(
  `throughput ratio docklens / engine: ${(plain / engine).toFixed(2)}, ` +
    `with gzip ${(gzipped / engine).toFixed(2)}, with br ${(brotli / engine).toFixed(2)} (goal: 100); ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}`,
);
