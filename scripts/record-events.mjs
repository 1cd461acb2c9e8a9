#!/usr/bin/env node
// Record the engine's /events for each kind of change the container mirror applies (start, stop,
// pause, rename, health, removal, a container created and removed in one burst, and an exec,
// which changes nothing a list shows), as the engine sends them: the unit tests of the mirror's
// event model replay them (test/unit/mirror-events.test.ts). Run once per engine, by hand:
//   node scripts/record-events.mjs unix:///path/docker.sock test/fixtures/events/docker.json
//   node scripts/record-events.mjs unix:///path/podman.sock test/fixtures/events/podman.json
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { request } from "node:http";

const [host, out] = process.argv.slice(2);
if (!host?.startsWith("unix://") || !out) {
  console.error("usage: record-events.mjs unix:///path/to/engine.sock OUT.json");
  process.exit(2);
}
const docker = (...args) =>
  execFileSync("docker", ["-H", host, ...args], { encoding: "utf8" }).trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const version = JSON.parse(docker("version", "--format", "{{json .Server}}"));
// Docker names its part `Engine`, Podman `Podman Engine`.
const engine = version.Components?.[0]?.Name?.replace(/^Engine$/, "Docker Engine") ?? "engine";

// Every event from now on, as sent.
const events = [];
let rest = "";
const stream = request({ socketPath: host.slice("unix://".length), path: "/events" }, (res) =>
  res.on("data", (chunk) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop();
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
  }),
);
stream.end();
await sleep(1000);

const steps = [];
/** Run `act`, wait for its events to come, and keep them under `name` with the container it acted on. */
async function step(name, act, settleMs = 1000) {
  const from = events.length;
  const id = act();
  await sleep(settleMs);
  steps.push({ step: name, container: id, events: events.slice(from) });
}

const image = "local/busybox:1";
let id;
let checked;
await step(
  "create",
  () => (id = docker("create", "--name", "rec-a", "-l", "rec=1", image, "sleep", "600")),
);
await step("start", () => (docker("start", id), id));
await step("pause", () => (docker("pause", id), id));
await step("unpause", () => (docker("unpause", id), id));
await step("rename", () => (docker("rename", "rec-a", "rec-b"), id));
await step("exec", () => (docker("exec", id, "true"), id));
await step("stop", () => (docker("stop", "-t", "1", id), id), 2500);
await step("remove", () => (docker("rm", id), id));
await step("create and remove in one burst", () => {
  const made = docker("create", "-l", "rec=1", image, "true");
  docker("rm", made);
  return made;
});
// The health check passes once the container has touched /tmp/ok.
await step(
  "health",
  () =>
    (checked = docker(
      "run",
      "-d",
      "--name",
      "rec-h",
      "-l",
      "rec=1",
      "--health-cmd",
      "test -e /tmp/ok",
      "--health-interval",
      "1s",
      "--health-retries",
      "1",
      image,
      "sh",
      "-c",
      "sleep 2; touch /tmp/ok; sleep 600",
    )),
  6000,
);
await step("kill and remove", () => (docker("rm", "-f", checked), checked), 1500);
stream.destroy();
writeFileSync(
  out,
  `${JSON.stringify({ engine: `${engine} ${version.Version}`, steps }, null, 1)}\n`,
);
console.log(`${out}: ${steps.map((s) => `${s.step} ${s.events.length}`).join(", ")}`);
