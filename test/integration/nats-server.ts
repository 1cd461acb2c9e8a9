import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/ports.ts";

/** Debian's nats-server on a loopback port, in a temp dir of its own; stopped and started again on the same port. */
export interface NatsServer {
  url: string;
  port: number;
  /** Stop it (SIGTERM), as an outage would. */
  stop(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it and remove its dir. */
  close(): Promise<void>;
}

/** Start nats-server; `config`: nats-server.conf text (`listen` is added). Missing, it fails, never skips. */
export async function startNatsServer(
  config = "",
  env: Record<string, string> = {},
): Promise<NatsServer> {
  const dir = await mkdtemp(join(tmpdir(), "nats-"));
  const port = await freePort();
  const file = join(dir, "nats-server.conf");
  await writeFile(file, `listen: "127.0.0.1:${port}"\n${config}\n`);
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn("nats-server", ["-c", file], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...env },
    });
    child = started;
    let stderr = "";
    started.stderr.on("data", (chunk) => (stderr += chunk));
    const ready = await Promise.race([
      new Promise<boolean>((resolve) =>
        started.stderr.on("data", () => stderr.includes("Server is ready") && resolve(true)),
      ),
      once(started, "exit").then(() => false),
      once(started, "error").then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    if (!ready) {
      started.kill("SIGKILL");
      throw new Error(
        `nats-server did not start (is Debian's nats-server installed?): ${stderr.slice(-500)}`,
      );
    }
  };
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
    child = undefined;
  };
  try {
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
