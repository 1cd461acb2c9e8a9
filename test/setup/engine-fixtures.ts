// What the integration tests find on the engines: containers in every state, a compose project
// over two engines, images that drift and images that do not, volumes and networks.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";

const run = promisify(execFile);

export const IMAGE = "local/busybox:1";

/** A container that writes to stdout and stderr once a second, for logs and attach. */
const TICKER = 'i=0; while true; do i=$((i+1)); echo "out $i"; echo "err $i" >&2; sleep 1; done';

export async function docker(host: string, ...args: string[]): Promise<string> {
  return (await run("docker", ["-H", host, ...args])).stdout.trim();
}

export async function fixturesA(host: string): Promise<void> {
  // Published on loopback ports nothing listens on (no userland proxy binds them), in an order docker would not sort.
  const [http, dns] = await Promise.all([freePort(), freePort()]);
  await Promise.all([
    // Health: one whose probe always fails (unhealthy at its first probe), one still starting, one
    // healthy. Started first: the set-up waits for their first probe, one interval after the
    // start. Every 10 s: each probe is an exec (runc, a cgroup, three events); the two cost the
    // run's engines 0.05 of a core at 5 s, 0.1 at 1 s.
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
      "10s",
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
      // Since Docker 25 the start period probes every 5 s by default (then: healthy at once).
      "--health-start-interval",
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
      "10s",
      IMAGE,
      "sleep",
      "100000",
    ),
    docker(
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
    ).then(() =>
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

/**
 * Wait until each container named has the health given, asking every half second (each ask runs
 * the docker CLI, a tenth of a second of CPU while the runs beside set up their engines too).
 */
export async function waitForHealth(host: string, health: Record<string, string>): Promise<void> {
  const names = Object.keys(health);
  const want = names.map((name) => `/${name} ${health[name]}`).join("\n");
  const format = "{{.Name}} {{.State.Health.Status}}";
  const reached = async () => (await docker(host, "inspect", "-f", format, ...names)) === want;
  if (!(await until(reached, 30_000, 500)))
    throw new Error(`not ${JSON.stringify(health)} in 30 s`);
}

/** Wait until `container` has logged at least `lines` lines, so that log tests have something to read. */
export async function waitForLogs(host: string, container: string, lines: number): Promise<void> {
  const logged = async () => {
    const { stdout, stderr } = await run("docker", ["-H", host, "logs", container]);
    return (stdout + stderr).split("\n").filter(Boolean).length >= lines;
  };
  if (!(await until(logged, 20_000, 500)))
    throw new Error(`${container} did not log ${lines} lines in 20 s`);
}

export async function fixturesB(host: string): Promise<void> {
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
export async function sharedImages(hostA: string, hostB: string): Promise<void> {
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
export async function fixturesP(host: string): Promise<void> {
  await Promise.all([
    docker(host, "run", "-d", "--name", "p-web", "-l", "app=p-web", IMAGE, "sh", "-c", TICKER),
    docker(host, "create", "--name", "p-fresh", IMAGE, "true"),
    // No network: Podman lists it with `Networks: null`, and no HostConfig.
    docker(host, "run", "-d", "--name", "p-none", "--network", "none", IMAGE, "sleep", "86400"),
    docker(host, "run", "--name", "p-done", IMAGE, "sh", "-c", "echo bye; exit 3").catch(
      () => undefined,
    ),
    docker(host, "volume", "create", "--label", "purpose=pod", "p-vol"),
  ]);
}
