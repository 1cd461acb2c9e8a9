import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { BIN } from "./helpers.ts";

/**
 * `docklens node --name <name>` (the built CLI) on the NATS server at `url`, serving `configPath`'s
 * clusters (`args`: more flags, `--clusters`, `--heartbeat`); resolves once it says it serves.
 */
export async function startNode(
  url: string,
  name: string,
  configPath: string,
  args: string[] = [],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [BIN, "node", "--nats", url, "--name", name, "--config", configPath, ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const [line] = (await Promise.race([once(child.stdout, "data"), once(child, "exit")])) as [
    unknown,
  ];
  if (!new RegExp(`^docklens node ${name}: serving `).test(String(line))) {
    child.kill("SIGKILL");
    throw new Error(`docklens node ${name} did not start: ${String(line)}`);
  }
  return child;
}

/** Stop a node started by {@link startNode} (SIGTERM: it says goodbye; SIGKILL: it dies), if it runs. */
export async function stopNode(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  await exited;
}
