import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { freePort } from "../support/ports.ts";
import type { TestEngines } from "./fixtures.ts";

const run = promisify(execFile);
const ENGINE_SH = join(import.meta.dirname, "../../scripts/engine.sh");
const PODMAN_SH = join(import.meta.dirname, "../../scripts/podman.sh");
const IMAGE = "local/busybox:1";
/** A container that writes to stdout and stderr once a second, for logs and attach. */
const TICKER = 'i=0; while true; do i=$((i+1)); echo "out $i"; echo "err $i" >&2; sleep 1; done';

async function docker(host: string, ...args: string[]): Promise<string> {
  return (await run("docker", ["-H", host, ...args])).stdout.trim();
}

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

async function fixturesA(host: string): Promise<void> {
  await docker(
    host,
    "network",
    "create",
    "--driver",
    "bridge",
    "--subnet",
    "192.0.2.0/24",
    "--gateway",
    "192.0.2.1",
    "--label",
    "team=ops",
    "lens-net",
  );
  // Published on loopback ports nothing listens on (no userland proxy binds them), in an order docker would not sort.
  const [http, dns] = await Promise.all([freePort(), freePort()]);
  await Promise.all([
    docker(
      host,
      "run",
      "-d",
      "--name",
      "web",
      "--network",
      "lens-net",
      "--ip",
      "192.0.2.10",
      "--expose",
      "9090",
      "-p",
      `127.0.0.1:${dns}:8053/udp`,
      "-p",
      `127.0.0.1:${http}:8080`,
      "-l",
      "app=web",
      "-l",
      "tier=front",
      "-e",
      "DB_PASSWORD=hunter2",
      "-e",
      "API_TOKEN=abc123",
      "-e",
      "PLAIN=visible",
      IMAGE,
      "sh",
      "-c",
      TICKER,
    ),
    // Health: one whose probe always fails (unhealthy within a second or two), one still starting.
    docker(
      host,
      "run",
      "-d",
      "--name",
      "sick",
      "-l",
      "app=sick",
      "--health-cmd",
      "echo probe failed; exit 1",
      "--health-interval",
      "1s",
      "--health-retries",
      "1",
      IMAGE,
      "sleep",
      "100000",
    ),
    docker(
      host,
      "run",
      "-d",
      "--name",
      "starting",
      "--health-cmd",
      "true",
      "--health-interval",
      "1h",
      "--health-start-period",
      "1h",
      IMAGE,
      "sleep",
      "100000",
    ),
    docker(
      host,
      "run",
      "-d",
      "--name",
      "fine",
      "--health-cmd",
      "true",
      "--health-interval",
      "1s",
      IMAGE,
      "sleep",
      "100000",
    ),
    // One service of the compose project "shop", whose other service runs on B.
    docker(
      host,
      "run",
      "-d",
      "--name",
      "shop-web",
      "-l",
      "com.docker.compose.project=shop",
      "-l",
      "com.docker.compose.service=web",
      IMAGE,
      "sleep",
      "100000",
    ),
    docker(host, "run", "-d", "--name", "frozen", IMAGE, "sleep", "100000").then(() =>
      docker(host, "pause", "frozen"),
    ),
    docker(
      host,
      "run",
      "--name",
      "failed",
      "-l",
      "app=failed",
      IMAGE,
      "sh",
      "-c",
      "echo bye; exit 3",
    ).catch(() => undefined),
    docker(host, "create", "--name", "fresh", "-l", "app=fresh", IMAGE, "true"),
    docker(host, "volume", "create", "--label", "purpose=data", "--label", "empty=", "data"),
    docker(
      host,
      "volume",
      "create",
      "--opt",
      "type=tmpfs",
      "--opt",
      "device=tmpfs",
      "--opt",
      "o=size=1m",
      "--label",
      "kind=tmp",
      "scratch",
    ),
    docker(host, "volume", "create", "plain"),
  ]);
}

/** Wait until the health of `container` is `status`. */
async function waitForHealth(host: string, container: string, status: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await docker(host, "inspect", "-f", "{{.State.Health.Status}}", container)) === status)
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${container} did not become ${status} in 20 s`);
}

/** Wait until `container` has logged at least `lines` lines, so that log tests have something to read. */
async function waitForLogs(host: string, container: string, lines: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { stdout, stderr } = await run("docker", ["-H", host, "logs", container]);
    if ((stdout + stderr).split("\n").filter(Boolean).length >= lines) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${container} did not log ${lines} lines in 20 s`);
}

async function fixturesB(host: string): Promise<void> {
  await Promise.all([
    docker(host, "run", "-d", "--name", "b-one", IMAGE, "sleep", "100000"),
    docker(host, "create", "--name", "b-two", IMAGE, "true"),
    // A TTY container: its output is not multiplexed.
    docker(
      host,
      "run",
      "-d",
      "-t",
      "--name",
      "b-tty",
      IMAGE,
      "sh",
      "-c",
      'i=0; while true; do i=$((i+1)); echo "tty $i"; sleep 1; done',
    ),
    docker(host, "volume", "create", "b-vol"),
    // One service of the compose project "shop", whose other service runs on A.
    docker(
      host,
      "run",
      "-d",
      "--name",
      "shop-db",
      "-l",
      "com.docker.compose.project=shop",
      "-l",
      "com.docker.compose.service=db",
      IMAGE,
      "sleep",
      "100000",
    ),
  ]);
}

/**
 * What both engines run, for the views across clusters: `local/app:1` imported on each by itself,
 * so one reference names two different images (drift); `local/same:1` saved on A and loaded on
 * B, so it names the same image on both; a container of each on each engine.
 */
async function sharedImages(hostA: string, hostB: string): Promise<void> {
  const tiny = (host: string, reference: string) =>
    run("bash", [
      "-c",
      `d=$(mktemp -d) && echo "${host}" > "$d/app" && tar -C "$d" -c . | docker -H "${host}" import -c 'CMD ["/app"]' - ${reference} && rm -rf "$d"`,
    ]);
  await Promise.all([
    tiny(hostA, "local/app:1"),
    tiny(hostB, "local/app:1"),
    tiny(hostA, "local/same:1"),
  ]);
  await run("bash", ["-c", `docker -H "${hostA}" save local/same:1 | docker -H "${hostB}" load`]);
  await Promise.all([
    docker(hostA, "create", "--name", "app-a", "local/app:1"),
    docker(hostB, "create", "--name", "app-b", "local/app:1"),
    docker(hostA, "create", "--name", "same-a", "local/same:1"),
    docker(hostB, "create", "--name", "same-b", "local/same:1"),
  ]);
}

/** Podman's fixtures, made with the docker CLI through Podman's Docker-compatible API. */
async function fixturesP(host: string): Promise<void> {
  await Promise.all([
    docker(host, "run", "-d", "--name", "p-web", "-l", "app=p-web", IMAGE, "sh", "-c", TICKER),
    docker(host, "create", "--name", "p-fresh", IMAGE, "true"),
    docker(host, "run", "--name", "p-done", IMAGE, "sh", "-c", "echo bye; exit 3").catch(
      () => undefined,
    ),
    docker(host, "volume", "create", "--label", "purpose=pod", "p-vol"),
  ]);
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

/** Start engines A and B with their fixtures, a dead and a hanging endpoint, and a config naming all four. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tmp = await mkdtemp(join(tmpdir(), "docklens-test-"));
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
    const [hostA, hostB, hostP] = await Promise.all([
      run("bash", [ENGINE_SH, "start", dirA]).then((r) => r.stdout.trim()),
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
      waitForHealth(hostA, "sick", "unhealthy"),
      waitForHealth(hostA, "fine", "healthy"),
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
      JSON.stringify({ clusters: [{ name: "pod", host: hostP }] }),
    );
    project.provide("engines", engines);
    const before = await Promise.all([hostA, adminB, hostP].map(engineState));
    // docklens only reads: after the whole suite, both engines must be as the fixtures left them.
    return async () => {
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
  } catch (error) {
    await stopAll();
    throw error;
  }
}
