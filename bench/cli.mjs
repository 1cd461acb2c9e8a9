#!/usr/bin/env node
// Times `docklens containers local --json` against `docker ps -a --format json` on one engine
// holding a few hundred containers, and prints the ratio of the medians. Run by hand, as root:
//   node bench/cli.mjs [--containers 300] [--runs 21]
// It starts a throwaway engine in /tmp/docklens-bench (scripts/engine.sh) and leaves it
// running for the next run; `bash scripts/engine.sh stop /tmp/docklens-bench` removes it.
//
// Two more rows say where the time goes: `node -e 0` (Node's own start) and a bare Node
// script that makes the same engine call and prints the same JSON with nothing else loaded,
// the floor of any Node CLI here. Node 20 reads NODE_EXTRA_CA_CERTS at start, whether or not
// the program uses TLS; when the environment sets it, every Node row is also timed without it.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { benchEngine, BIN, median } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "300" },
    runs: { type: "string", default: "21" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const runs = Number(values.runs);
const { host, containers } = benchEngine(values.dir, Number(values.containers));

const format =
  spawnSync("docker", ["-H", host, "ps", "-a", "--format", "json"]).status === 0
    ? "json"
    : "{{json .}}";
const FLOOR = `require("node:http").get({ socketPath: process.env.DOCKER_HOST.slice(7), path: "/containers/json?all=1" }, (r) => {
  const chunks = []; r.on("data", (c) => chunks.push(c));
  r.on("end", () => process.stdout.write(JSON.stringify({ containers: JSON.parse(Buffer.concat(chunks)) }) + "\\n"));
});`;
const env = { ...process.env, DOCKER_HOST: host, DOCKLENS_CONFIG: "" };
const bare = { ...env };
delete bare.NODE_EXTRA_CA_CERTS;
const rows = {
  "docklens containers local --json": [
    process.execPath,
    [BIN, "containers", "local", "--json"],
    env,
  ],
  [`docker ps -a --format ${format}`]: ["docker", ["ps", "-a", "--format", format], env],
  "bare Node, the same call (floor)": [process.execPath, ["-e", FLOOR], env],
  "node -e 0 (Node's own start)": [process.execPath, ["-e", "0"], env],
};
if (env.NODE_EXTRA_CA_CERTS) {
  for (const name of [
    "docklens containers local --json",
    "bare Node, the same call (floor)",
    "node -e 0 (Node's own start)",
  ]) {
    rows[`${name}, no NODE_EXTRA_CA_CERTS`] = [...rows[name].slice(0, 2), bare];
  }
}

function time([file, args, environment]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, args, { env: environment, cwd: "/", maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${file} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

const names = Object.keys(rows);
const samples = Object.fromEntries(names.map((name) => [name, []]));
for (const name of names) time(rows[name]); // warm the page cache
for (let i = 0; i < runs; i++) {
  // Alternate the order, so that drift on the machine hits every row alike.
  for (const name of i % 2 ? [...names].reverse() : names) samples[name].push(time(rows[name]).ms);
}
const listed = JSON.parse(time(rows[names[0]]).out).containers.length;
if (listed !== containers)
  throw new Error(`docklens listed ${listed} containers, the engine has ${containers}`);

const m = Object.fromEntries(names.map((name) => [name, median(samples[name])]));
const docker = m[names[1]];
console.log(
  `containers on the engine: ${containers}; runs: ${runs} each, alternating; medians (min), and the ratio to docker`,
);
for (const name of names)
  console.log(
    `${name.padEnd(56)} ${m[name].toFixed(1).padStart(6)} ms (${Math.min(...samples[name]).toFixed(1)})  ${(m[name] / docker).toFixed(2)}`,
  );
console.log(
  `ratio docklens / docker: ${(m[names[0]] / docker).toFixed(2)} (aims: 1.3; issue 2 at most 2.0, issue 5 at most 1.5)`,
);
if (env.NODE_EXTRA_CA_CERTS)
  console.log(
    `without NODE_EXTRA_CA_CERTS: ${(m[`${names[0]}, no NODE_EXTRA_CA_CERTS`] / docker).toFixed(2)}`,
  );
