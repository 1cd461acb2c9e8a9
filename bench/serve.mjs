#!/usr/bin/env node
// Throughput of `docklens serve` on /list/:cluster/containers of a 300-container engine at 16
// concurrent clients, against the same number of clients asking the engine's API directly
// (GET /containers/json?all=1 on its socket). Repeats, prints medians and the ratio, and the
// server's memory before and after. Run by hand, as root:  node bench/serve.mjs [--seconds 5]
import { request, Agent } from "node:http";
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

/** `clients` loops asking `target` for `seconds`; resolves with requests per second. */
async function load(target) {
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
        await get();
        done++;
      }
    }),
  );
  agent.destroy();
  return done / seconds;
}

const server = await startServe({ DOCKER_HOST: host, DOCKLENS_CONFIG: "" });
const url = new URL(server.url);
const viaDocklens = { host: url.hostname, port: Number(url.port), path: "/list/local/containers" };
const direct = { socketPath, path: "/containers/json?all=1" };
const rssBefore = server.rssKiB();
const results = { docklens: [], engine: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  results.docklens.push(await load(viaDocklens));
  results.engine.push(await load(direct));
}
const rssAfter = server.rssKiB();
await server.stop();
const a = median(results.docklens);
const b = median(results.engine);
console.log(
  `containers: ${containers}; ${clients} clients; ${values.rounds} rounds of ${seconds} s each, alternating`,
);
console.log(
  `docklens serve /list/local/containers  median ${a.toFixed(0)} req/s  (${results.docklens.map((x) => x.toFixed(0)).join(", ")})`,
);
console.log(
  `engine GET /containers/json?all=1      median ${b.toFixed(0)} req/s  (${results.engine.map((x) => x.toFixed(0)).join(", ")})`,
);
console.log(
  `server memory: ${(rssBefore / 1024).toFixed(0)} MiB before, ${(rssAfter / 1024).toFixed(0)} MiB after ${Math.round(a * seconds * Number(values.rounds))} requests`,
);
console.log(`throughput ratio docklens / engine: ${(a / b).toFixed(2)} (aim at least 3)`);
