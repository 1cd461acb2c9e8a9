// Shared by the benchmarks: a throwaway engine with N containers, docklens serve, timing helpers.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
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

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Milliseconds to the last byte of `url`, which must answer 200: asked as a browser asks (gzip),
 * the body counted, never decoded (fetch would decode it: that is the client's time).
 */
export async function timeToLastByte(url, headers = {}) {
  const start = performance.now();
  const response = await new Promise((resolve, reject) =>
    httpGet(url, { headers: { "accept-encoding": "gzip", ...headers } }, resolve).on(
      "error",
      reject,
    ),
  );
  const chunks = [];
  for await (const chunk of response) chunks.push(chunk);
  if (response.statusCode !== 200)
    throw new Error(`${url}: ${response.statusCode} ${Buffer.concat(chunks)}`);
  return performance.now() - start;
}

/** Read `/list/containers` until it holds `total` containers: the ms that took. */
export async function waitForContainers(url, total, limitMs = 300_000) {
  const start = performance.now();
  for (;;) {
    // A kept-alive connection serve closed meanwhile fails once: ask again.
    const body = await fetch(`${url}/list/containers`)
      .then((response) => response.json())
      .catch(() => ({ containers: [] }));
    if (body.containers.length >= total) return performance.now() - start;
    if (performance.now() - start > limitMs) throw new Error("serve's mirrors never completed");
    await sleep(250);
  }
}

/**
 * When the dashboard's containers view held `total` rows with its first ones drawn, by the
 * page's clock (performance.now(), which starts at navigation): "usable".
 */
export async function usableAt(page, total) {
  const usable = await page.waitForFunction(
    (want) => {
      /* global document -- run in the page */
      const count = document.querySelector("p.count");
      const drawn = document.querySelector("tbody tr[data-key]");
      return count?.getAttribute("data-total") === String(want) && drawn
        ? performance.now()
        : false;
    },
    total,
    { polling: "raf", timeout: 60_000 },
  );
  return usable.jsonValue();
}

/** Headless Chromium (Debian's) with the tests' flags (test/integration/browser/browser.ts). */
export async function launchChromium(executablePath = "/usr/bin/chromium") {
  const { chromium } = await import("playwright-core");
  const { default: args } = await import("../test/integration/browser/chromium-args.json", {
    with: { type: "json" },
  });
  return chromium.launch({ executablePath, args });
}

/** A free loopback TCP port (free when asked). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Debian's nats-server on a loopback port with its monitoring port (`varz()`: its counters);
 * `stop()` as an outage would (SIGTERM), `start()` again on the same ports, `close()` for good.
 */
export async function startNatsServer(extra = "") {
  const dir = mkdtempSync(join(tmpdir(), "docklens-nats-"));
  const [port, monitor] = [await freePort(), await freePort()];
  const file = join(dir, "nats-server.conf");
  writeFileSync(file, `listen: "127.0.0.1:${port}"\nhttp: "127.0.0.1:${monitor}"\n${extra}\n`);
  let child;
  const start = async () => {
    child = spawn("/usr/sbin/nats-server", ["-c", file], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    const ready = new Promise((resolve, reject) => {
      child.stderr.on("data", (chunk) => {
        said += chunk;
        if (said.includes("Server is ready")) resolve();
      });
      child.once("exit", () => reject(new Error(`nats-server did not start: ${said.slice(-500)}`)));
    });
    await ready;
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    varz: async () => (await fetch(`http://127.0.0.1:${monitor}/varz`)).json(),
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user and system) process `pid` has used so far. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
