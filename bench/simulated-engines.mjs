// The simulated engines of bench/scale.mjs: the engine bodies recorded once from the bench
// engine, and a worker thread holding one loopback HTTP server per engine that answers them
// after its delay (and `/events` with a quiet stream), counting the calls it gets.
import { execFileSync, spawnSync } from "node:child_process";
import { createServer, get } from "node:http";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { benchEngine, ROOT } from "./lib.mjs";

/**
 * What is recorded: the engine calls of these routes (readDockerInfo in src/core/clusters/clusters.ts,
 * listContainers in src/core/containers/containers.ts, engineMetrics in src/server/metrics.ts), and a few
 * more that docklens might ask for, so that a new call answers rather than fails.
 */
const RECORDED = [
  "/_ping",
  "/version",
  "/info",
  "/volumes",
  "/containers/json?all=true",
  "/images/json",
  "/networks",
];
const NOT_FOUND = { status: 404, type: "application/json", body: '{"message":"page not found"}' };

/** The worker: one HTTP server per engine, each answering the recorded bodies after its delay. */
async function simulate({ bodies, delays }) {
  const answers = new Map(
    Object.entries(bodies).map(([path, answer]) => [
      path,
      { ...answer, body: Buffer.from(answer.body) },
    ]),
  );
  const notFound = { ...NOT_FOUND, body: Buffer.from(NOT_FOUND.body) };
  const calls = new Map();
  const servers = delays.map((delay) => {
    const server = createServer((req, res) => {
      const path = new URL(req.url, "http://engine").pathname.replace(/^\/v\d+\.\d+(?=\/)/, "");
      calls.set(path, (calls.get(path) ?? 0) + 1);
      // serve's hub follows each engine's events before it lists: a stream that stays open and
      // quiet, its headers sent at once, as moby's.
      if (path === "/events") {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.flushHeaders();
        return;
      }
      const answer = answers.get(path) ?? notFound;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, {
          "Content-Type": answer.type,
          "Content-Length": answer.body.length,
        });
        res.end(answer.body);
      }, delay);
    });
    server.keepAliveTimeout = 0; // As dockerd: an idle keep-alive connection stays open.
    return server;
  });
  await Promise.all(
    servers.map((server) => new Promise((ok) => server.listen(0, "127.0.0.1", ok))),
  );
  parentPort.on("message", (message) => {
    if (message === "calls") {
      parentPort.postMessage({ calls: Object.fromEntries(calls) });
      calls.clear();
    } else if (message === "close") {
      for (const server of servers) {
        server.close();
        server.closeAllConnections();
      }
      parentPort.close();
    }
  });
  parentPort.postMessage({ ports: servers.map((server) => server.address().port) });
}

/**
 * Start (or reuse) the bench engine with at least `perEngine` containers and read the bodies of
 * RECORDED from it, keyed by path; the container list is cut to `perEngine` items, each with its
 * inspect body. With `stop`,
 * stops the engine afterwards if it was not running before.
 */
export async function recordBodies(dir, perEngine, stop) {
  const socket = join(dir, "docker.sock");
  const wasUp =
    spawnSync("docker", ["-H", `unix://${socket}`, "version"], { stdio: "ignore" }).status === 0;
  try {
    benchEngine(dir, perEngine);
    const bodies = {};
    for (const path of RECORDED) {
      const answer = await read(socket, path);
      if (answer.status !== 200) {
        throw new Error(`the bench engine answered ${path} with ${answer.status}`);
      }
      if (path.startsWith("/containers/json")) {
        const items = JSON.parse(answer.body).slice(0, perEngine);
        answer.body = JSON.stringify(items);
        // serve's container mirror inspects each listed container once (its state's times).
        for (const { Id } of items)
          bodies[`/containers/${Id}/json`] = await read(socket, `/containers/${Id}/json`);
      }
      bodies[new URL(path, "http://engine").pathname] = answer;
    }
    return bodies;
  } finally {
    if (stop && !wasUp) {
      execFileSync("bash", [join(ROOT, "scripts/engine.sh"), "stop", dir], { stdio: "ignore" });
    }
  }
}

/** GET `path` of the engine at unix socket `socketPath`: its status, content type and body text. */
function read(socketPath, path) {
  return new Promise((resolve, reject) => {
    get({ socketPath, path }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const type = res.headers["content-type"] ?? "application/json";
        resolve({ status: res.statusCode, type, body: Buffer.concat(chunks).toString("utf8") });
      });
    }).on("error", reject);
  });
}

if (!isMainThread) await simulate(workerData);
