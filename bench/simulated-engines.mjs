// The simulated engines of bench/scale.mjs: the engine bodies recorded once from the bench
// engine, and a worker thread holding one loopback HTTP server per engine that answers them
// after its delay, counting the calls it gets.
import { execFileSync, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer, get } from "node:http";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { benchEngine, ROOT } from "./lib.mjs";

/**
 * What is recorded: the engine calls of these routes (readDockerInfo in src/core/clusters/clusters.ts,
 * listContainers in src/core/containers/containers.ts, engineMetrics in src/server/metrics.ts), and a few
 * more that docklens might ask for, so that a new call answers rather than fails; with the list,
 * each listed container's inspect body (serve's mirror reads them). `/events` opens and stays quiet,
 * unless the worker is told to send events (see simulate).
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
 * One engine's containers as serve's live mirror reads them: the list (all, or those of the
 * `id` and `label` filters, as the engine filters) and each container's inspect body (its state,
 * from the list item). The events the engine sends change them.
 */
function engineContainers(list) {
  const items = JSON.parse(list.body);
  const byId = new Map(items.map((item) => [item.Id, item]));
  let whole;
  const answer = (body) => ({ status: 200, type: "application/json", body: Buffer.from(body) });
  return {
    items,
    list(filters) {
      if (!filters) return (whole ??= answer(JSON.stringify(items)));
      const values = (key) =>
        filters[key] && (Array.isArray(filters[key]) ? filters[key] : Object.keys(filters[key]));
      const [ids, labels] = [values("id"), values("label")];
      const chosen = items.filter(
        (item) =>
          (!ids || ids.some((id) => item.Id.startsWith(id))) &&
          (!labels ||
            labels.every((label) => {
              const [key, ...value] = label.split("=");
              return (
                key in (item.Labels ?? {}) &&
                (!value.length || item.Labels[key] === value.join("="))
              );
            })),
      );
      return answer(JSON.stringify(chosen));
    },
    inspect(id) {
      const item = byId.get(id);
      if (!item) return undefined;
      const started = item.startedAt ?? new Date((item.Created + 5) * 1000).toISOString();
      const running = item.State === "running";
      const State = {
        Status: item.State,
        Running: running,
        StartedAt: started,
        FinishedAt: running ? "0001-01-01T00:00:00Z" : (item.finishedAt ?? started),
        ExitCode: item.exitCode ?? 0,
        ...(item.health ? { Health: { Status: item.health } } : {}),
      };
      return answer(JSON.stringify({ Id: item.Id, State, HostConfig: item.HostConfig ?? {} }));
    },
    /** The engine's next event on a random container of its own, as dockerd sends it; applied. */
    event() {
      const item = items[Math.floor(Math.random() * items.length)];
      const now = Date.now();
      const at = new Date(now).toISOString();
      const attributes = { image: item.Image, name: item.Names[0].slice(1) };
      let action;
      if (item.State !== "running") {
        action = "start";
        Object.assign(item, { State: "running", Status: "Up Less than a second", startedAt: at });
        delete item.health;
      } else if (Math.random() < 0.6) {
        // Half the deaths non-zero: what an `exited` rule fires on, and a `start` resolves.
        const code = Math.random() < 0.5 ? 1 : 0;
        action = "die";
        attributes.exitCode = String(code);
        Object.assign(item, {
          State: "exited",
          Status: `Exited (${code}) Less than a second ago`,
          exitCode: code,
          finishedAt: at,
        });
        delete item.health;
      } else {
        item.health = item.health === "unhealthy" ? "healthy" : "unhealthy";
        action = `health_status: ${item.health}`;
        item.Status = `Up 5 seconds (${item.health})`;
      }
      whole = undefined;
      const Actor = { ID: item.Id, Attributes: attributes };
      const time = Math.floor(now / 1000);
      return `${JSON.stringify({ status: action, id: item.Id, from: item.Image, Type: "container", Action: action, Actor, scope: "local", time, timeNano: now * 1e6 })}\n`;
    },
  };
}

/** A running container's stats as dockerd sends them (`stream=false`), its counters from the clock. */
function statsBody() {
  const now = Date.now();
  return {
    read: new Date(now).toISOString(),
    pids_stats: { current: 3 },
    cpu_stats: {
      cpu_usage: { total_usage: now * 1000 },
      system_cpu_usage: now * 2e6,
      online_cpus: 2,
    },
    memory_stats: { usage: 52_428_800, limit: 8_589_934_592, stats: { inactive_file: 4_194_304 } },
    networks: { eth0: { rx_bytes: now % 1e9, tx_bytes: now % 1e8 } },
    blkio_stats: {
      io_service_bytes_recursive: [
        { major: 8, minor: 0, op: "read", value: 1_048_576 },
        { major: 8, minor: 0, op: "write", value: 2_097_152 },
      ],
    },
  };
}

/**
 * The worker: one HTTP server per engine, each answering the recorded bodies after its delay,
 * and `hung` more that take connections and never answer. With `eventsPerSecond`, the engines
 * send that many container events in all (die, start, health_status) on their open `/events`
 * streams, each on a random container of its engine, and change its list item and state so.
 */
async function simulate({ bodies, delays, hung = 0, eventsPerSecond = 0, linesPerSecond = 0 }) {
  const answers = new Map(
    Object.entries(bodies).map(([path, answer]) => [
      path,
      { ...answer, body: Buffer.from(answer.body) },
    ]),
  );
  const notFound = { ...NOT_FOUND, body: Buffer.from(NOT_FOUND.body) };
  const calls = new Map();
  const engines = delays.map(() => ({
    containers: engineContainers(bodies["/containers/json"]),
    streams: new Set(),
    logStreams: new Set(),
  }));
  const servers = delays.map((delay, index) => {
    const engine = engines[index];
    const server = createServer((req, res) => {
      const url = new URL(req.url, "http://engine");
      const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, "");
      calls.set(path, (calls.get(path) ?? 0) + 1);
      // The event stream (serve's hub): answered, then open, quiet unless events are sent.
      if (path === "/events") {
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { "Content-Type": "application/json" });
          res.flushHeaders();
          engine.streams.add(res);
          res.on("close", () => engine.streams.delete(res));
        }, delay);
        return;
      }
      // A container's followed logs (history's recorder): open, written to by writeLines.
      if (/^\/containers\/[^/]+\/logs$/.test(path)) {
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { "Content-Type": "application/vnd.docker.multiplexed-stream" });
          res.flushHeaders();
          if (!/^(1|true)$/.test(url.searchParams.get("follow") ?? "")) return void res.end();
          engine.logStreams.add(res);
          res.on("close", () => engine.logStreams.delete(res));
        }, delay);
        return;
      }
      // A container's one-shot stats (history's recorder): its counters grow with the clock.
      if (/^\/containers\/[^/]+\/stats$/.test(path)) {
        const body = Buffer.from(JSON.stringify(statsBody()));
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
          res.end(body);
        }, delay);
        return;
      }
      const inspected = /^\/containers\/([^/]+)\/json$/.exec(path);
      const filters = url.searchParams.get("filters");
      const answer =
        path === "/containers/json"
          ? engine.containers.list(filters ? JSON.parse(filters) : undefined)
          : ((inspected && engine.containers.inspect(inspected[1])) ??
            answers.get(path) ??
            notFound);
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
  let sent = 0;
  let rate;
  let sender;
  // Events from now on at `perSecond` (0: none); told again, at the new rate.
  const sendEvents = (perSecond) => {
    clearInterval(sender);
    rate = { perSecond, start: performance.now(), sent };
    if (!perSecond) return;
    sender = setInterval(() => {
      const due = rate.sent + Math.floor(((performance.now() - rate.start) / 1000) * perSecond);
      for (; sent < due; sent++) {
        const engine = engines[Math.floor(Math.random() * engines.length)];
        const line = engine.containers.event();
        for (const stream of engine.streams) stream.write(line);
      }
    }, 20);
  };
  sendEvents(eventsPerSecond);
  // Every followed log gets `perSecond` lines a second (0: none), 100 bytes each with docker's
  // timestamp, in stdout frames of the multiplexed stream.
  let lines = 0;
  let writer;
  const writeLines = (perSecond) => {
    clearInterval(writer);
    if (!perSecond) return;
    const start = performance.now();
    let written = 0;
    writer = setInterval(() => {
      const due = Math.floor(((performance.now() - start) / 1000) * perSecond);
      const stamp = new Date().toISOString().slice(0, -1);
      for (; written < due; written++)
        for (const engine of engines)
          for (const stream of engine.logStreams) {
            const at = String(lines % 1e6).padStart(6, "0");
            const text = `${stamp}${at}Z ${lines} GET /api/items/${lines % 100_000} 200 `;
            const payload = Buffer.from(`${text.padEnd(130, "abcdefghij")}\n`);
            const frame = Buffer.alloc(8 + payload.length);
            frame[0] = 1;
            frame.writeUInt32BE(payload.length, 4);
            payload.copy(frame, 8);
            stream.write(frame);
            lines++;
          }
    }, 50);
  };
  writeLines(linesPerSecond);
  for (let i = 0; i < hung; i++) servers.push(createServer(() => {}));
  await Promise.all(
    servers.map((server) => new Promise((ok) => server.listen(0, "127.0.0.1", ok))),
  );
  parentPort.on("message", (message) => {
    if (message === "calls") {
      parentPort.postMessage({ calls: Object.fromEntries(calls), events: sent, lines });
      calls.clear();
    } else if (typeof message?.eventsPerSecond === "number") {
      sendEvents(message.eventsPerSecond);
    } else if (typeof message?.linesPerSecond === "number") {
      writeLines(message.linesPerSecond);
    } else if (message === "close") {
      clearInterval(sender);
      clearInterval(writer);
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
        const items = JSON.parse(answer.body).slice(0, perEngine);
        answer.body = JSON.stringify(items);
        // Each container's inspect body: serve's mirror reads its state's times.
        for (const { Id } of items) {
          bodies[`/containers/${Id}/json`] = await read(socket, `/containers/${Id}/json`);
        }
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

/**
 * `bodies` with the first `share` (0 to 1) of the listed containers running for two hours (the
 * bench engine's are created, never started: a mirror inspects none of those).
 */
export function withRunning(bodies, share) {
  const items = JSON.parse(bodies["/containers/json"].body);
  const running = Math.round(items.length * share);
  items.slice(0, running).forEach((item) =>
    Object.assign(item, {
      State: "running",
      Status: "Up 2 hours",
      startedAt: new Date(Date.now() - 7200_000).toISOString(),
    }),
  );
  return {
    ...bodies,
    "/containers/json": { ...bodies["/containers/json"], body: JSON.stringify(items) },
  };
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

/**
 * The simulated engines in a worker thread (`options` as {@link simulate} takes them): their
 * ports; `calls()`, the engine calls by path since the last time asked (and the events sent);
 * `sendEvents(perSecond)`, events from now on at that rate; `close()`.
 */
export async function startSimulatedEngines(options) {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  const { ports } = (await once(worker, "message"))[0];
  return {
    ports,
    calls: async () => {
      worker.postMessage("calls");
      return (await once(worker, "message"))[0];
    },
    sendEvents: (eventsPerSecond) => worker.postMessage({ eventsPerSecond }),
    writeLines: (linesPerSecond) => worker.postMessage({ linesPerSecond }),
    close: async () => {
      worker.postMessage("close");
      await Promise.race([once(worker, "exit"), new Promise((ok) => setTimeout(ok, 2000))]);
      await worker.terminate();
    },
  };
}

if (!isMainThread) await simulate(workerData);
