#!/usr/bin/env node
// Times `docklens containers local --json` against `docker ps -a --format json` on one engine
// holding a few hundred containers, and prints the ratio of the medians. Run by hand, as root:
//   node bench/cli.mjs [--containers 300] [--runs 21]
// It starts a throwaway engine in /tmp/docklens-bench (scripts/engine.sh) and leaves it
// running for the next run; `bash scripts/engine.sh stop /tmp/docklens-bench` removes it.
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { containers: { type: "string", default: "300" }, runs: { type: "string", default: "21" }, dir: { type: "string", default: "/tmp/docklens-bench" } } });
const wanted = Number(values.containers);
const runs = Number(values.runs);

const host = execFileSync("bash", [join(root, "scripts/engine.sh"), "start", values.dir], { encoding: "utf8" }).trim();
const docker = (...args) => execFileSync("docker", ["-H", host, ...args], { encoding: "utf8", maxBuffer: 256 << 20 });

// Created containers are as heavy to list as running ones and cost the machine nothing.
const have = docker("ps", "-aq").split("\n").filter(Boolean).length;
for (let i = have; i < wanted; i += 16) {
  const batch = Array.from({ length: Math.min(16, wanted - i) }, (_, k) => `bench-${i + k}`);
  await Promise.all(batch.map((name) => new Promise((resolve) => {
    const child = spawnSync("docker", ["-H", host, "create", "--name", name, "-l", "bench=1", "-l", `n=${name}`, "local/busybox:1", "sleep", "1"], { stdio: "ignore" });
    resolve(child.status);
  })));
}
const count = docker("ps", "-aq").split("\n").filter(Boolean).length;

const format = spawnSync("docker", ["-H", host, "ps", "-a", "--format", "json"]).status === 0 ? "json" : "{{json .}}";
const commands = {
  docklens: [process.execPath, [join(root, "bin/docklens.mjs"), "containers", "local", "--json"]],
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = { docklens: [], docker: [] };
for (const name of Object.keys(commands)) time(commands[name]); // warm the page cache
for (let i = 0; i < runs; i++) {
  // Alternate, so that drift on the machine hits both alike.
  for (const name of i % 2 ? ["docker", "docklens"] : ["docklens", "docker"]) samples[name].push(time(commands[name]).ms);
}
const listed = JSON.parse(time(commands.docklens).out).containers.length;
if (listed !== count) throw new Error(`docklens listed ${listed} containers, the engine has ${count}`);

const help = median(Array.from({ length: 9 }, () => time([process.execPath, [join(root, "bin/docklens.mjs"), "--help"]]).ms));
const a = median(samples.docklens);
const b = median(samples.docker);
console.log(`containers on the engine: ${count}; runs: ${runs} each, alternating`);
console.log(`docklens containers local --json  median ${a.toFixed(1)} ms  (min ${Math.min(...samples.docklens).toFixed(1)})`);
console.log(`docker ps -a --format ${format.padEnd(10)} median ${b.toFixed(1)} ms  (min ${Math.min(...samples.docker).toFixed(1)})`);
console.log(`docklens --help                   median ${help.toFixed(1)} ms`);
console.log(`ratio docklens / docker: ${(a / b).toFixed(2)} (aim 1.3, at most 2.0)`);
