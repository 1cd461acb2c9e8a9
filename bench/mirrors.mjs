#!/usr/bin/env node
// Serve's mirrors over many engines (issue 25): 41 simulated engines (bench/simulated-engines.mjs),
// one answering at once and 40 after --delay ms (60), each listing --containers (300) of the bench
// engine's containers. Prints, with the machine's load average beside each figure:
// - `/list/containers` served from the mirrors, to its last byte, asked with gzip as a browser asks
//   and not decoded (median of --runs; goal <= 10 ms);
// - `/list/cluster` against the 82 calls it stands for (`/info` and `/volumes` of every engine)
//   sent at once by the bench itself (median of --runs each; goal <= 1.1x);
// - serve's RSS before the mirrors and once they hold every engine's containers.
// Run by hand, as root:   node bench/mirrors.mjs [--engines 41] [--containers 300] [--delay 60]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, sleep, startServe, timeToLastByte as time } from "./lib.mjs";
import { recordBodies, startSimulatedEngines } from "./simulated-engines.mjs";

const { values } = parseArgs({
  options: {
    engines: { type: "string", default: "41" },
    containers: { type: "string", default: "300" },
    delay: { type: "string", default: "60" },
    runs: { type: "string", default: "21" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const [engines, perEngine, delay, runs] = ["engines", "containers", "delay", "runs"].map((key) =>
  Number(values[key]),
);
const load = () => loadavg()[0].toFixed(1);

const bodies = await recordBodies(values.dir, perEngine, false);
const simulated = await startSimulatedEngines({
  bodies,
  delays: Array.from({ length: engines }, (_, i) => (i === 0 ? 0 : delay)),
});
const { ports } = simulated;
const dir = mkdtempSync(join(tmpdir(), "docklens-mirrors-"));
const config = join(dir, "docklens.config.json");
writeFileSync(
  config,
  JSON.stringify({
    clusters: ports.map((port, i) => ({ name: `sim-${i + 1}`, host: "127.0.0.1", port })),
  }),
);
const serve = await startServe({ DOCKLENS_CONFIG: config });
try {
  await sleep(500);
  const idle = serve.rssKiB();
  const first = await time(`${serve.url}/list/containers`);
  const body = await (await fetch(`${serve.url}/list/containers`)).json();
  if (body.errors.length) throw new Error(`clusters failed: ${JSON.stringify(body.errors[0])}`);
  const listed = body.containers.length;
  const timings = async (make) => {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await make());
    return median(all);
  };
  const lists = await timings(() => time(`${serve.url}/list/containers`));
  const listsLoad = load();
  const clusters = await timings(() => time(`${serve.url}/list/cluster`));
  const straight = await timings(async () => {
    const start = performance.now();
    await Promise.all(
      ports.flatMap((port) =>
        ["/info", "/volumes"].map((path) =>
          fetch(`http://127.0.0.1:${port}${path}`).then((res) => res.arrayBuffer()),
        ),
      ),
    );
    return performance.now() - start;
  });
  const clustersLoad = load();
  await sleep(1000);
  const held = serve.rssKiB();
  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
  console.log(
    `${engines} engines (1 at once, ${engines - 1} after ${delay} ms), ${listed} containers`,
  );
  console.log(`/list/containers, first (the mirrors list and inspect): ${first.toFixed(0)} ms`);
  console.log(
    `/list/containers from the mirrors, median of ${runs}: ${lists.toFixed(1)} ms (load ${listsLoad})`,
  );
  console.log(
    `/list/cluster ${clusters.toFixed(1)} ms against ${ports.length * 2} straight calls ${straight.toFixed(1)} ms: ` +
      `${(clusters / straight).toFixed(2)}x (load ${clustersLoad})`,
  );
  console.log(
    `serve RSS: ${mib(idle)} idle, ${mib(held)} with the mirrors of ${listed} containers (load ${load()})`,
  );
} finally {
  await serve.stop();
  await simulated.close();
  rmSync(dir, { recursive: true, force: true });
}
