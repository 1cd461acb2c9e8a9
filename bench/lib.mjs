// Shared by the benchmarks: a throwaway engine with N containers, docklens serve, timing helpers.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(ROOT, "bin/docklens.mjs");

/** Start (or reuse) the bench engine in `dir` holding at least `count` containers; returns its DOCKER_HOST. */
export function benchEngine(dir, count) {
  const host = execFileSync("bash", [join(ROOT, "scripts/engine.sh"), "start", dir], {
    encoding: "utf8",
  }).trim();
  const docker = (...args) =>
    execFileSync("docker", ["-H", host, ...args], { encoding: "utf8", maxBuffer: 256 << 20 });
  const have = docker("ps", "-aq").split("\n").filter(Boolean).length;
  // Created containers are as heavy to list as running ones and cost the machine nothing.
  for (let i = have; i < count; i++) {
    spawnSync(
      "docker",
      [
        "-H",
        host,
        "create",
        "--name",
        `bench-${i}`,
        "-l",
        "bench=1",
        "-l",
        `n=${i}`,
        "local/busybox:1",
        "sleep",
        "1",
      ],
      { stdio: "ignore" },
    );
  }
  return { host, containers: docker("ps", "-aq").split("\n").filter(Boolean).length };
}

/** `docklens serve` on a free loopback port; resolves with its URL, pid and a stop function. */
export async function startServe(env, args = []) {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--quiet", "--json", ...args],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = await once(child.stdout, "data");
  const { url } = JSON.parse(line.toString());
  return {
    url,
    pid: child.pid,
    rssKiB: () =>
      Number(
        /VmRSS:\s+(\d+)/.exec(
          execFileSync("cat", [`/proc/${child.pid}/status`], { encoding: "utf8" }),
        )[1],
      ),
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A loopback TCP proxy to `target` ({ port } or { path }) that delays what the engine sends by
 * `delayMs`, and keeps the request lines docklens sent (`GET /v1.51/events?`) in `requests`.
 */
export async function delayProxy(target, delayMs) {
  const requests = [];
  const server = createServer((client) => {
    const engine = target.path ? connect(target.path) : connect(target.port, "127.0.0.1");
    client.on("data", (chunk) => {
      for (const match of chunk.toString("latin1").matchAll(/^GET (\S+) HTTP\/1\.[01]\r$/gm))
        requests.push(match[1]);
    });
    client.pipe(engine);
    engine.on("data", (chunk) =>
      setTimeout(() => client.destroyed || client.write(chunk), delayMs),
    );
    engine.on("close", () => setTimeout(() => client.destroy(), delayMs));
    client.on("close", () => engine.destroy());
    client.on("error", () => engine.destroy());
    engine.on("error", () => client.destroy());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, requests, close: () => server.close() };
}

/**
 * Start (or reuse) an engine in `dir` running `count` containers named `many-0`… of busybox
 * running `script` (they are made once and kept); returns its DOCKER_HOST.
 */
export function runningEngine(dir, count, script, label = "many=1") {
  const host = execFileSync("bash", [join(ROOT, "scripts/engine.sh"), "start", dir], {
    encoding: "utf8",
  }).trim();
  const running = execFileSync("docker", ["-H", host, "ps", "-q", "--filter", `label=${label}`], {
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean).length;
  for (let i = running; i < count; i++)
    execFileSync("docker", [
      "-H",
      host,
      "run",
      "-d",
      "--name",
      `many-${label.replace(/\W/g, "")}-${i}`,
      "-l",
      label,
      "local/busybox:1",
      "sh",
      "-c",
      script,
    ]);
  return host;
}
