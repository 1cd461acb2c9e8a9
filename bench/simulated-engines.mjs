// The simulated engines of bench/scale.mjs: the engine bodies recorded once from the bench
// engine, and a worker thread holding one loopback HTTP server per engine that answers them
// after its delay, counting the calls it gets.
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

/**
 * What serve's live mirror asks beyond the recorded bodies: each container's inspect body (its
 * state, from the list item) and an `/events` stream that stays open and quiet.
 */
function mirrorAnswers(list) {
  const answers = new Map();
  for (const item of JSON.parse(list.body)) {
    const started = new Date((item.Created + 5) * 1000).toISOString();
    const State = {
      Status: item.State,
      Running: item.State === "running",
      StartedAt: started,
      FinishedAt: item.State === "running" ? "0001-01-01T00:00:00Z" : started,
      ExitCode: 0,
    };
    const body = JSON.stringify({ Id: item.Id, State, HostConfig: item.HostConfig ?? {} });
    answers.set(`/containers/${item.Id}/json`, { status: 200, type: "application/json", body });
  }
  return answers;
}

/**
 * The worker: one HTTP server per engine, each answering the recorded bodies after its delay,
 * and `hung` more that take connections and never answer.
 */
async function simulate({ bodies, delays, hung = 0 }) {
  const answers = new Map(
    Object.entries(bodies).map(([path, answer]) => [
      path,
      { ...answer, body: Buffer.from(answer.body) },
    ]),
  );
  for (const [path, answer] of mirrorAnswers(bodies["/containers/json"]))
    answers.set(path, { ...answer, body: Buffer.from(answer.body) });
  const notFound = { ...NOT_FOUND, body: Buffer.from(NOT_FOUND.body) };
  const calls = new Map();
  const servers = delays.map((delay) => {
    const server = createServer((req, res) => {
      const path = new URL(req.url, "http://engine").pathname.replace(/^\/v\d+\.\d+(?=\/)/, "");
      calls.set(path, (calls.get(path) ?? 0) + 1);
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
  for (let i = 0; i < hung; i++) servers.push(createServer(() => {}));
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
 * RECORDED from it, keyed by path; the container list is cut to `perEngine` items. With `stop`,
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
        answer.body = JSON.stringify(JSON.parse(answer.body).slice(0, perEngine));
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
