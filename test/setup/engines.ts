import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { freePort } from "../support/ports.ts";
import {
  docker,
  fixturesA,
  fixturesB,
  fixturesP,
  sharedImages,
  waitForHealth,
  waitForLogs,
} from "./engine-fixtures.ts";
import type { TestEngines } from "./test-engines.ts";

const run = promisify(execFile);
const ENGINE_SH = join(import.meta.dirname, "../../scripts/engine.sh");
const PODMAN_SH = join(import.meta.dirname, "../../scripts/podman.sh");

/** A loopback server that accepts connections and never answers: a hung engine. */
async function hangingServer(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

/** What the tests must leave as they found it: containers and their states, volumes, networks, images. */
async function engineState(host: string): Promise<string> {
  const lists = await Promise.all([
    docker(host, "ps", "-a", "--no-trunc", "--format", "{{.ID}} {{.Names}} {{.State}}"),
    docker(host, "volume", "ls", "-q"),
    docker(host, "network", "ls", "-q", "--no-trunc"),
    docker(host, "images", "-q", "--no-trunc"),
  ]);
  return lists.map((list) => list.split("\n").sort().join("\n")).join("\n--\n");
}

/** The engines of a run, and what stops them (and checks they were left as the fixtures made them). */
interface StartedEngines {
  engines: TestEngines;
  stop: () => Promise<void>;
}

/**
 * What the integration projects share (each loads its own copy of this file, as temp-dir.ts
 * says): one set of engines for the run, started by the first project's setup and stopped by
 * the last one's teardown.
 */
function shared(): { users: number; started?: Promise<StartedEngines> } {
  return ((globalThis as { __docklensEngines?: { users: number } }).__docklensEngines ??= {
    users: 0,
  });
}

/** Global setup of each integration project: the run's engines, started once, given to its tests. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = shared();
  run.users += 1;
  run.started ??= startEngines();
  const { engines, stop } = await run.started;
  project.provide("engines", engines);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    run.started = undefined;
    await stop();
  };
}

/**
 * Start engines A (Docker 28) and B (Docker 20.10) with their fixtures, a dead and a hanging
 * endpoint, and a config naming all four.
 */
async function startEngines(): Promise<StartedEngines> {
  // In the run's own temp dir (temp-dir.ts), under a short name: engines' sockets are below it.
  const tmp = await mkdtemp(join(tmpdir(), "engines-"));
  const dirA = join(tmp, "engine-a");
  const dirB = join(tmp, "engine-b");
  const dirP = join(tmp, "podman");
  const [portB, deadPort, hang] = await Promise.all([freePort(), freePort(), hangingServer()]);
  const stopAll = async () => {
    for (const socket of hang.sockets) socket.destroy();
    hang.server.close();
    await Promise.all([
      ...[dirA, dirB].map((dir) => run("bash", [ENGINE_SH, "stop", dir]).catch(() => undefined)),
      run("bash", [PODMAN_SH, "stop", dirP]).catch(() => undefined),
    ]);
    // The scratch directory holds what tests wrote (keys and certificates among it): none of it stays.
    await rm(tmp, { recursive: true, force: true });
  };
  try {
    // A is Debian unstable's Docker 28, the engine users run today, and B bookworm's 20.10. The
    // docker CLI that the tests compare docklens with is Docker 28's, first on the PATH of the
    // tests and what they start (vitest's workers take the PATH of after the global set-up).
    const docker28 = (await run("bash", [ENGINE_SH, "docker", "28"])).stdout.trim();
    process.env.PATH = `${join(docker28, "usr/bin")}:${process.env.PATH}`;
    const [hostA, hostB, hostP] = await Promise.all([
      run("bash", [ENGINE_SH, "start", "--docker", "28", dirA]).then((r) => r.stdout.trim()),
      run("bash", [ENGINE_SH, "start", dirB, `tcp://127.0.0.1:${portB}`]).then((r) =>
        r.stdout.trim(),
      ),
      run("bash", [PODMAN_SH, "start", dirP]).then((r) => r.stdout.trim()),
    ]);
    const adminB = `unix://${dirB}/docker.sock`;
    await Promise.all([fixturesA(hostA), fixturesB(adminB), fixturesP(hostP)]);
    await sharedImages(hostA, adminB);
    await Promise.all([
      waitForLogs(hostA, "web", 8),
      waitForLogs(adminB, "b-tty", 4),
      waitForLogs(hostP, "p-web", 4),
      waitForHealth(hostA, { fine: "healthy", sick: "unhealthy" }),
    ]);
    const engines: TestEngines = {
      hostA,
      hostB,
      adminB,
      hostP,
      podmanConfigPath: join(tmp, "config", "podman.json"),
      // Not in `tmp` itself: the CLI runs there to find no config by default.
      configPath: join(tmp, "config", "docklens.config.json"),
      deadTimeoutMs: 2000,
      hangTimeoutMs: 800,
      podTimeoutMs: 15_000,
      tmp,
    };
    await mkdir(join(tmp, "config"));
    await writeFile(
      engines.configPath,
      JSON.stringify({
        clusters: [
          { name: "alpha", host: hostA, icon: "🅰" },
          { id: 7, name: "bravo", host: "127.0.0.1", port: portB },
          { name: "dead", host: "127.0.0.1", port: deadPort, timeoutMs: engines.deadTimeoutMs },
          { name: "hang", host: `tcp://127.0.0.1:${hang.port}`, timeoutMs: engines.hangTimeoutMs },
        ],
      }),
    );
    await writeFile(
      engines.podmanConfigPath,
      JSON.stringify({
        clusters: [{ name: "pod", host: hostP, timeoutMs: engines.podTimeoutMs }],
      }),
    );
    const before = await Promise.all([hostA, adminB, hostP].map(engineState));
    // docklens only reads: after the whole suite, both engines must be as the fixtures left them.
    const stop = async () => {
      const after = await Promise.all([hostA, adminB, hostP].map(engineState)).catch(
        (error: Error) => [error.message],
      );
      await stopAll();
      if (after.join() !== before.join()) {
        // vitest reports an error thrown here but still exits 0: fail the run by hand.
        process.exitCode = 1;
        throw new Error(
          `the engines' state changed during the tests:\nbefore:\n${before.join("\n")}\nafter:\n${after.join("\n")}`,
        );
      }
    };
    return { engines, stop };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
