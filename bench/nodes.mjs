#!/usr/bin/env node
// Nodes (issue 27), with a real nats-server (Debian's, on loopback, its monitoring port read for
// message counts) and the built CLI. `--part` runs one part alone (all three unset):
// 1. --nodes (100) `docklens node`s over NATS, each over a simulated engine of --containers (120)
//    (bench/simulated-engines.mjs), hosted --per-process (25) to a process (bench/node-host.mjs),
//    behind one hub (`docklens serve` with `nats:`): the dashboard usable (headless Chromium, as
//    bench/ui.mjs measures it; goal <= 1.5 s), `/list/containers`, the hub's RSS and CPU, NATS
//    messages a second at rest and with --churn events a second on the engines, and the time
//    until every node is listed again after the NATS server is stopped and started (goal 10 s).
// 2. Through a hub against straight, on the bench engine (a real one: simulated engines cannot
//    follow logs): `/list/:cluster/containers` from a serve over the engine, and from a hub
//    through a node over NATS and over HTTP (goal <= 1.2x); a followed log of --lines lines,
//    lines a second each way.
// 3. Two hub replicas on one NATS reading one node (a simulated engine, its calls counted): the
//    engine calls against one hub's (goal 1.0x), quiet, then with events.
// Run by hand, as root, after `npm run build`:
//   node bench/nodes.mjs [--part 1|2|3] [--nodes 100] [--containers 120] [--per-process 25]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  benchEngine,
  cpuSeconds,
  launchChromium,
  median,
  sleep,
  startNatsServer,
  startServe,
  timeToLastByte,
  waitForContainers,
} from "./lib.mjs";
import { recordBodies, startSimulatedEngines, withRunning } from "./simulated-engines.mjs";
import {
  clustersUp,
  followedLines,
  holdWatch,
  load,
  measureServe,
  ms,
  natsRate,
  readHubs,
  settled,
  startNodes as hostNodes,
} from "./nodes-lib.mjs";

const { values } = parseArgs({
  options: {
    part: { type: "string" },
    nodes: { type: "string", default: "100" },
    containers: { type: "string", default: "120" },
    "per-process": { type: "string", default: "25" },
    delay: { type: "string", default: "20" },
    churn: { type: "string", default: "50" },
    "replica-churn": { type: "string", default: "2" },
    running: { type: "string", default: "0.5" },
    runs: { type: "string", default: "11" },
    lines: { type: "string", default: "200000" },
    seconds: { type: "string", default: "10" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const [nodes, perEngine, perProcess, delay, churn, runs, seconds] = [
  "nodes",
  "containers",
  "per-process",
  "delay",
  "churn",
  "runs",
  "seconds",
].map((key) => Number(values[key]));
const running = Number(values.running);
/** What is started, stopped in reverse order at the end (also on a failure or ^C). */
const started = [];
const temp = mkdtempSync(join(tmpdir(), "docklens-nodes-"));
const cleanup = async () => {
  for (const stop of started.splice(0).reverse())
    await Promise.resolve()
      .then(stop)
      .catch(() => {});
  rmSync(temp, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => cleanup().finally(() => process.exit(130)));
const keep = (thing, stop) => (started.push(stop), thing);

/** A JSON config file in the temp dir: its path. */
function writeConfig(name, config) {
  const file = join(temp, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** `docklens node`s over NATS, as many to a process as --per-process says. */
const startNodes = (natsUrl, configs) => hostNodes(natsUrl, configs, { perProcess });

async function partOne() {
  // The hub has an engine of its own, as a hub on a Docker host has (and so 12,120 containers).
  const total = (nodes + 1) * perEngine;
  console.log(
    `\n1. ${nodes} nodes over NATS and a hub's own engine, ${perEngine} containers each ` +
      `(${total}, ${values.running} of them running)`,
  );
  const bodies = withRunning(await recordBodies(values.dir, perEngine, false), running);
  const engines = await startSimulatedEngines({ bodies, delays: Array(nodes + 1).fill(delay) });
  keep(engines, engines.close);
  const [own, ...ports] = engines.ports;
  const nats = await startNatsServer();
  keep(nats, nats.close);
  const configs = Object.fromEntries(
    ports.map((port, i) => [
      `node-${i + 1}`,
      writeConfig(`node-${i + 1}`, { clusters: [{ name: "sim", host: "127.0.0.1", port }] }),
    ]),
  );
  let start = performance.now();
  const hosts = await startNodes(nats.url, configs);
  keep(hosts, hosts.stop);
  console.log(
    `  ${nodes} nodes in ${hosts.pids.length} processes serving after ${ms(performance.now() - start)} (${load()})`,
  );
  const hub = await startServe({
    DOCKLENS_CONFIG: writeConfig("hub", {
      clusters: [{ name: "local", host: "127.0.0.1", port: own }],
      nats: { servers: [nats.url] },
    }),
  });
  keep(hub, hub.stop);
  const idle = hub.rssKiB();
  const warm = await waitForContainers(hub.url, total);
  console.log(`  hub lists all ${total} containers ${ms(warm)} after it started (${load()})`);
  const filled = await settled(engines);
  console.log(
    `  its mirrors and the nodes' done inspecting ${ms(warm + filled)} after (${load()})`,
  );
  const browser = await launchChromium();
  keep(browser, () => browser.close());
  // A viewer all along, as a dashboard tab: the hub keeps its mirrors (and the nodes theirs).
  keep(null, holdWatch(hub.url));
  await measureServe("the hub", hub, { browser, total, idle, runs });
  // The same engines read straight by one serve, on the same machine at the same time.
  const straight = await startServe({
    DOCKLENS_CONFIG: writeConfig("straight", {
      clusters: engines.ports.map((port, i) => ({ name: `sim-${i}`, host: "127.0.0.1", port })),
    }),
  });
  const straightIdle = straight.rssKiB();
  console.log(
    `  straight: lists all ${total} containers ` +
      `${ms(await waitForContainers(straight.url, total))} after it started (${load()})`,
  );
  await settled(engines);
  await measureServe("straight", straight, { browser, total, idle: straightIdle, runs });
  await straight.stop();
  await browser.close();
  await sleep(2000);
  const pids = [hub.pid, ...hosts.pids];
  const cpu = async (what) => {
    const before = pids.map(cpuSeconds);
    const rate = await natsRate(nats, seconds);
    const used = pids.map((pid, i) => (cpuSeconds(pid) - before[i]) / seconds);
    const hosted = used.slice(1).reduce((a, b) => a + b, 0);
    console.log(
      `  NATS ${what}: ${rate}; CPU: hub ${(used[0] * 100).toFixed(1)}%, ` +
        `node processes ${(hosted * 100).toFixed(1)}% of a core (${load()})`,
    );
  };
  await cpu("at rest");
  engines.sendEvents(churn);
  await cpu(`with ${churn} events a second`);
  engines.sendEvents(0);
  await sleep(2000);
  await nats.stop();
  await sleep(2000);
  if (await clustersUp(hub.url, 2))
    throw new Error("the hub still lists nodes up with NATS stopped");
  await nats.start();
  start = performance.now();
  while (!(await clustersUp(hub.url, nodes + 1))) {
    if (performance.now() - start > 60_000) throw new Error("the nodes did not come back in 60 s");
    await sleep(100);
  }
  const back = performance.now() - start;
  const { errors } = await (await fetch(`${hub.url}/list/containers`)).json();
  if (errors.length)
    console.log(
      `  (then ${errors.length} clusters' lists still failed: ${errors[0].error.message})`,
    );
  await waitForContainers(hub.url, total);
  console.log(
    `  NATS stopped 2 s and started: all ${nodes} nodes listed again after ${ms(back)}, ` +
      `their ${total} containers after ${ms(performance.now() - start)} (goal <= 10 s; ${load()})`,
  );
}

async function partTwo() {
  const { host, containers } = benchEngine(values.dir, perEngine);
  console.log(`\n2. Through a hub against straight (the bench engine, ${containers} containers)`);
  const nats = await startNatsServer();
  keep(nats, nats.close);
  const engine = { clusters: [{ name: "bench", host }] };
  const token = "bench-node-token-0123456789abcdef";
  const straight = await startServe({ DOCKLENS_CONFIG: writeConfig("straight", engine) });
  keep(straight, straight.stop);
  const httpNode = await startServe({
    DOCKLENS_CONFIG: writeConfig("http-node", {
      ...engine,
      tokens: [{ name: "hub", env: "NODE_TOKEN", clusters: ["*"] }],
    }),
    NODE_TOKEN: token,
  });
  keep(httpNode, httpNode.stop);
  const natsNode = await startNodes(nats.url, { far: writeConfig("nats-node", engine) });
  keep(natsNode, natsNode.stop);
  const hub = await startServe({
    DOCKLENS_CONFIG: writeConfig("hub", {
      nodes: [{ name: "edge", url: httpNode.url, token: { env: "EDGE_TOKEN" } }],
      nats: { servers: [nats.url] },
    }),
    EDGE_TOKEN: token,
  });
  keep(hub, hub.stop);
  const ways = [
    ["straight", straight.url, "bench"],
    ["hub -> node over HTTP", hub.url, "edge.bench"],
    ["hub -> node over NATS", hub.url, "far.bench"],
  ];
  for (let tries = 0; !(await clustersUp(hub.url, 2)); tries++) {
    if (tries > 100) throw new Error("the hub never listed both nodes");
    await sleep(100);
  }
  // Each way's first list fills its mirror; then the ways take turns, so load hits each alike.
  const lists = new Map(ways.map(([name]) => [name, []]));
  for (const [, url, cluster] of ways) await timeToLastByte(`${url}/list/${cluster}/containers`);
  await sleep(2000);
  for (let run = 0; run < runs; run++)
    for (const [name, url, cluster] of ways)
      lists.get(name).push(await timeToLastByte(`${url}/list/${cluster}/containers`));
  const base = median(lists.get("straight"));
  for (const [name] of ways) {
    const value = median(lists.get(name));
    console.log(
      `  /list/:cluster/containers ${name}, median of ${runs}: ${ms(value)}, ` +
        `${(value / base).toFixed(2)}x (goal <= 1.2x; ${load()})`,
    );
  }
  const lines = Number(values.lines);
  const docker = (...args) =>
    execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
  const id = docker(
    "run",
    "-d",
    "-l",
    "bench=nodes",
    "local/busybox:1",
    "sh",
    "-c",
    `seq 1 ${lines}; sleep 3600`,
  );
  keep(id, async () => docker("rm", "-f", id));
  while (docker("logs", "--tail", "1", id) !== String(lines)) await sleep(200);
  for (const [name, url, cluster] of ways) {
    const rates = [];
    for (let run = 0; run < 3; run++) rates.push(await followedLines(url, cluster, id, lines));
    console.log(
      `  a followed log (tail=all, ${lines} lines) ${name}: ` +
        `${(median(rates) / 1000).toFixed(1)}k lines a second (median of 3; ${load()})`,
    );
  }
}

async function partThree() {
  const eventsPerSecond = Number(values["replica-churn"]);
  console.log(
    `\n3. Hub replicas on one NATS reading one node (${perEngine} containers, ` +
      `${values.running} of them running)`,
  );
  const bodies = withRunning(await recordBodies(values.dir, perEngine, false), running);
  const nats = await startNatsServer();
  keep(nats, nats.close);
  const hubConfig = writeConfig("hub", { nats: { servers: [nats.url] } });
  const results = [];
  for (const count of [1, 2]) {
    // A fresh engine and node each time: each run starts from the same state.
    const engines = await startSimulatedEngines({ bodies, delays: [delay] });
    const node = writeConfig("twin", {
      clusters: [{ name: "sim", host: "127.0.0.1", port: engines.ports[0] }],
    });
    const twin = await startNodes(nats.url, { twin: node });
    await engines.calls();
    const hubs = [];
    for (let i = 0; i < count; i++) hubs.push(await startServe({ DOCKLENS_CONFIG: hubConfig }));
    await Promise.all(hubs.map((hub) => waitForContainers(hub.url, perEngine)));
    await readHubs(hubs, seconds);
    const quiet = (await engines.calls()).calls;
    engines.sendEvents(eventsPerSecond);
    await readHubs(hubs, seconds);
    engines.sendEvents(0);
    await sleep(2000);
    const churned = await engines.calls();
    for (const hub of hubs) await hub.stop();
    await twin.stop();
    await engines.close();
    results.push({ count, quiet, churned: churned.calls, events: churned.events });
  }
  const sum = (calls) => Object.values(calls).reduce((a, b) => a + b, 0);
  const byPath = (calls) =>
    Object.entries(calls)
      .map(([path, n]) => [path.replace(/^\/containers\/[0-9a-f]{64}\//, "/containers/ID/"), n])
      .reduce((all, [path, n]) => ({ ...all, [path]: (all[path] ?? 0) + n }), {});
  for (const { count, quiet, churned, events } of results)
    console.log(
      `  ${count} hub(s): engine calls ${sum(quiet)} quiet (start, ${seconds} s of reads) ` +
        `${JSON.stringify(byPath(quiet))}; ${sum(churned)} with ${events} events ` +
        `${JSON.stringify(byPath(churned))}`,
    );
  const [one, two] = results;
  console.log(
    `  engine calls, 2 hubs / 1: quiet ${(sum(two.quiet) / sum(one.quiet)).toFixed(2)}x, ` +
      `with events ${(sum(two.churned) / sum(one.churned)).toFixed(2)}x (goal 1.0x; ${load()})`,
  );
}

try {
  if (!values.part || values.part === "1") await partOne();
  if (!values.part || values.part === "2") await partTwo();
  if (!values.part || values.part === "3") await partThree();
} finally {
  await cleanup();
}
