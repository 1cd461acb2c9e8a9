#!/usr/bin/env node
// Times `docklens containers local --json` on one engine holding a few hundred containers
// against its floor: a bare Node script that makes the same engine call and prints the same body
// with nothing else loaded, on the same Node. The same engine named by a config file,
// `docklens containers bench --json --config f.json`, is timed against the same floor: what a
// config file costs. Each Node version asked for is timed (the registry's `node` package gives 22,
// 24 and 26), and `docker ps -a --format json` once, for scale.
// Run by hand, as root:
//   node bench/cli.mjs [--node 22,24,26] [--containers 300] [--runs 21] [--dir /tmp/docklens-bench]
// It starts a throwaway engine in the directory (scripts/engine.sh), writes f.json there, and
// leaves them for the next run; `bash scripts/engine.sh stop /tmp/docklens-bench` removes both.
//
// A third row per Node is the floor after importing the chunks every docklens run loads
// (dist/cli.mjs and what it imports, through Node's compile cache, as bin/docklens.mjs does) and
// running none of them: what loading the code alone costs, against the aim of 1.2.
//
// Node 20 reads NODE_EXTRA_CA_CERTS at start, whether or not the program uses TLS; when the
// environment sets it, every Node row is also timed without it.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { benchEngine, BIN, median, ROOT } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    node: { type: "string", default: "22,24,26" },
    containers: { type: "string", default: "300" },
    runs: { type: "string", default: "21" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const runs = Number(values.runs);
const { host, containers } = benchEngine(values.dir, Number(values.containers));
// One cluster, the bench engine: the run differs from `containers local` by the config file alone.
const configFile = join(values.dir, "f.json");
writeFileSync(configFile, JSON.stringify({ clusters: [{ name: "bench", host }] }));

/** This Node if it is the version asked for, else the registry's `node` package of it. */
function nodeOf(version) {
  if (process.versions.node.split(".")[0] === version) return process.execPath;
  const code = "process.stdout.write(process.execPath)";
  return execFileSync(
    "npm",
    ["exec", "--yes", "--package", `node@${version}`, "--", "node", "-e", code],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
}

const FLOOR = `require("node:http").get({ socketPath: process.env.DOCKER_HOST.slice(7), path: "/containers/json?all=1" }, (r) => {
  const chunks = []; r.on("data", (c) => chunks.push(c));
  r.on("end", () => process.stdout.write(JSON.stringify({ containers: JSON.parse(Buffer.concat(chunks)) }) + "\\n"));
});`;
const CLI = pathToFileURL(join(ROOT, "dist/cli.mjs")).href;
const LOADED = `import module from "node:module"; module.enableCompileCache?.(); await import(${JSON.stringify(CLI)});
${FLOOR.replace('require("node:http")', 'process.getBuiltinModule("node:http")')}`;
const env = { ...process.env, DOCKER_HOST: host, DOCKLENS_CONFIG: "" };
const bare = { ...env };
delete bare.NODE_EXTRA_CA_CERTS;
const environments = env.NODE_EXTRA_CA_CERTS
  ? { "": env, ", no NODE_EXTRA_CA_CERTS": bare }
  : { "": env };

const format =
  spawnSync("docker", ["-H", host, "ps", "-a", "--format", "json"]).status === 0
    ? "json"
    : "{{json .}}";
const rows = {
  [`docker ps -a --format ${format}`]: ["docker", ["ps", "-a", "--format", format], env],
};
const versions = values.node.split(",");
for (const version of versions) {
  const node = nodeOf(version);
  for (const [suffix, environment] of Object.entries(environments)) {
    rows[`Node ${version}: docklens containers local --json${suffix}`] = [
      node,
      [BIN, "containers", "local", "--json"],
      environment,
    ];
    rows[`Node ${version}: docklens containers bench --json --config f.json${suffix}`] = [
      node,
      [BIN, "containers", "bench", "--json", "--config", configFile],
      environment,
    ];
    rows[`Node ${version}: bare Node, the same call (floor)${suffix}`] = [
      node,
      ["-e", FLOOR],
      environment,
    ];
    rows[`Node ${version}: the floor after loading docklens's CLI chunks${suffix}`] = [
      node,
      ["--input-type=module", "-e", LOADED],
      environment,
    ];
  }
}

/**
 * One run: its wall time and its CPU time (user and system), as bash's `time` measures the child
 * alone. On a busy machine wall time is mostly waiting for a core; CPU time is what a run costs.
 */
function time([file, args, environment]) {
  const script = 'TIMEFORMAT="%3R %3U %3S"; time "$0" "$@"';
  const result = spawnSync("bash", ["-c", script, file, ...args], {
    env: environment,
    cwd: "/",
    maxBuffer: 256 << 20,
  });
  if (result.status !== 0) throw new Error(`${file} failed: ${result.stderr}`);
  const [wall, user, system] = String(result.stderr).trim().split("\n").at(-1).split(" ");
  return {
    ms: Number(wall) * 1000,
    cpu: (Number(user) + Number(system)) * 1000,
    out: result.stdout,
  };
}

const names = Object.keys(rows);
const samples = Object.fromEntries(names.map((name) => [name, []]));
const cpuSamples = Object.fromEntries(names.map((name) => [name, []]));
// Warm the page cache (and Node's compile cache, which docklens turns on from Node 22.1).
for (const name of names) time(rows[name]);
for (let i = 0; i < runs; i++) {
  // Alternate the order, so that drift on the machine hits every row alike.
  for (const name of i % 2 ? [...names].reverse() : names) {
    const { ms, cpu } = time(rows[name]);
    samples[name].push(ms);
    cpuSamples[name].push(cpu);
  }
}
for (const name of names.filter((name) => name.includes("docklens"))) {
  const listed = JSON.parse(time(rows[name]).out).containers.length;
  if (listed !== containers)
    throw new Error(`${name} listed ${listed} containers, the engine has ${containers}`);
}

const m = Object.fromEntries(names.map((name) => [name, median(samples[name])]));
const c = Object.fromEntries(names.map((name) => [name, median(cpuSamples[name])]));
console.log(
  `containers on the engine: ${containers}; runs: ${runs} each, alternating; medians (min)`,
);
for (const name of names)
  console.log(
    `${name.padEnd(80)} ${m[name].toFixed(1).padStart(6)} ms (${Math.min(...samples[name]).toFixed(1)}), CPU ${c[name].toFixed(1)} ms`,
  );
console.log(
  "docklens against its floor on the same Node (aim: at most 1.2), without / with f.json / loaded only:",
);
for (const version of versions)
  for (const suffix of Object.keys(environments)) {
    const ratios = (of) => {
      const floor = of[`Node ${version}: bare Node, the same call (floor)${suffix}`];
      const without = of[`Node ${version}: docklens containers local --json${suffix}`] / floor;
      const withFile =
        of[`Node ${version}: docklens containers bench --json --config f.json${suffix}`] / floor;
      const loaded =
        of[`Node ${version}: the floor after loading docklens's CLI chunks${suffix}`] / floor;
      return `${without.toFixed(2)} / ${withFile.toFixed(2)} / ${loaded.toFixed(2)}`;
    };
    console.log(`  Node ${version}${suffix}: wall ${ratios(m)}, CPU ${ratios(c)}`);
  }
