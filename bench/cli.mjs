#!/usr/bin/env node
// Times `docklens containers local --json` against `docker ps -a --format json` on one engine
// holding a few hundred containers, and prints the ratio of the medians. Run by hand, as root:
//   node bench/cli.mjs [--containers 300] [--runs 21]
// It starts a throwaway engine in /tmp/docklens-bench (scripts/engine.sh) and leaves it
// running for the next run; `bash scripts/engine.sh stop /tmp/docklens-bench` removes it.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { benchEngine, BIN, median } from "./lib.mjs";

const { values } = parseArgs({ options: { containers: { type: "string", default: "300" }, runs: { type: "string", default: "21" }, dir: { type: "string", default: "/tmp/docklens-bench" } } });
const runs = Number(values.runs);
const { host, containers } = benchEngine(values.dir, Number(values.containers));

const format = spawnSync("docker", ["-H", host, "ps", "-a", "--format", "json"]).status === 0 ? "json" : "{{json .}}";
const commands = {
  docklens: [process.execPath, [BIN, "containers", "local", "--json"]],
  docker: ["docker", ["ps", "-a", "--format", format]],
};
const env = { ...process.env, DOCKER_HOST: host, DOCKLENS_CONFIG: "" };

function time([file, args]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, args, { env, cwd: "/", maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${file} failed: ${result.stderr}`);
  return { ms, out: result.stdout };
}

const samples = { docklens: [], docker: [] };
for (const name of Object.keys(commands)) time(commands[name]); // warm the page cache
for (let i = 0; i < runs; i++) {
  // Alternate, so that drift on the machine hits both alike.
  for (const name of i % 2 ? ["docker", "docklens"] : ["docklens", "docker"]) samples[name].push(time(commands[name]).ms);
}
const listed = JSON.parse(time(commands.docklens).out).containers.length;
if (listed !== containers) throw new Error(`docklens listed ${listed} containers, the engine has ${containers}`);

const node = median(Array.from({ length: 9 }, () => time([process.execPath, ["-e", "0"]]).ms));
const help = median(Array.from({ length: 9 }, () => time([process.execPath, [BIN, "--help"]]).ms));
const a = median(samples.docklens);
const b = median(samples.docker);
console.log(`containers on the engine: ${containers}; runs: ${runs} each, alternating`);
console.log(`docklens containers local --json  median ${a.toFixed(1)} ms  (min ${Math.min(...samples.docklens).toFixed(1)})`);
console.log(`docker ps -a --format ${format.padEnd(10)} median ${b.toFixed(1)} ms  (min ${Math.min(...samples.docker).toFixed(1)})`);
console.log(`node -e 0 (Node's own start)      median ${node.toFixed(1)} ms`);
console.log(`docklens --help                   median ${help.toFixed(1)} ms`);
console.log(`ratio docklens / docker: ${(a / b).toFixed(2)} (aims: 1.3; issue 2 at most 2.0, issue 5 at most 1.5)`);
