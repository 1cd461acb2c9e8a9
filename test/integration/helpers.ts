import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, inject } from "vitest";

const exec = promisify(execFile);
export const BIN = join(import.meta.dirname, "../../bin/docklens.mjs");
export const engines = inject("engines");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the built CLI as a user would, in `cwd` (default: the scratch dir, where no config is),
 * with a clean environment: no DOCKER_HOST or DOCKLENS_CONFIG unless given, no colour.
 */
export async function cli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: engines.tmp,
    XDG_CONFIG_HOME: join(engines.tmp, "xdg"),
    NO_COLOR: "1",
    // The run's own temp dir (test/setup/temp-dir.ts), where Node keeps the CLI's compile cache.
    TMPDIR: process.env.TMPDIR ?? "",
    // Set by vitest.config.ts: the CLI's shared reads are frozen too.
    DOCKLENS_FREEZE_SHARED_READS: process.env.DOCKLENS_FREEZE_SHARED_READS ?? "",
    ...options.env,
  };
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], {
      env,
      cwd: options.cwd ?? engines.tmp,
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const err = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof err.code !== "number") throw error;
    return { code: err.code, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

/** Run the CLI with the test config and parse its `--json` output. */
export async function cliJson<T>(args: string[]): Promise<T> {
  const result = await cli([...args, "--json", "--config", engines.configPath]);
  if (result.code !== 0)
    throw new Error(`docklens ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** The docker CLI, as the oracle the tests compare docklens with. */
export async function docker(host: string, ...args: string[]): Promise<string> {
  return (await exec("docker", ["-H", host, ...args])).stdout.trim();
}

/** `docker ... -q --no-trunc` as a sorted list. */
export async function dockerIds(host: string, ...args: string[]): Promise<string[]> {
  return (await docker(host, ...args)).split("\n").filter(Boolean).sort();
}

/** The two Docker engines as the clusters alpha and bravo (id 7), as many tests name them. */
export function alphaAndBravo(): Array<Record<string, unknown>> {
  return [
    { name: "alpha", host: engines.hostA },
    { id: 7, name: "bravo", host: engines.hostB },
  ];
}

/** Write the config file `name` into the suite's scratch dir (or `dir`); returns its path. */
export async function writeConfig(name: string, body: object, dir = engines.tmp): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(body));
  return path;
}

/**
 * Write the suite's config as `name`, with the hung cluster `hang` given its own time limit:
 * tests that watch it wait or work around it need it longer than the suite's 800 ms.
 */
export async function writeConfigWithHang(name: string, timeoutMs: number): Promise<string> {
  const config = JSON.parse(await readFile(engines.configPath, "utf8"));
  for (const cluster of config.clusters) if (cluster.name === "hang") cluster.timeoutMs = timeoutMs;
  return writeConfig(name, config);
}

/**
 * Start `docklens serve` (the built CLI) over the test config (or `config`) on a free port (or
 * the `--port` of `args`), and wait for its first line on stdout; with `--json` that line holds
 * its `url`.
 */
export async function spawnServe(
  args: string[],
  options: { config?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ child: ChildProcess; line: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--config", options.config ?? engines.configPath, "--port", "0", ...args],
    {
      stdio: ["ignore", "pipe", "pipe"],
      // What serve records (its history) stays in the run's scratch dir, never the user's.
      env: options.env ?? { ...process.env, XDG_DATA_HOME: join(engines.tmp, "xdg-data") },
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [chunk] = (await Promise.race([
    once(child.stdout, "data"),
    once(child, "exit").then(() => [Buffer.from("")]),
  ])) as [Buffer];
  return { child, line: chunk.toString().trim(), stderr: () => stderr };
}

/** A file for `docker run --cidfile`: the container's id, written as soon as it exists. */
const cidfile = () => join(engines.tmp, `cid-${process.pid}-${randomUUID()}`);

/** Remove the container whose id `path` holds, if it came to exist, and the file. */
async function removeContainerOf(host: string, path: string): Promise<void> {
  const id = await readFile(path, "utf8").catch(() => "");
  if (id) await docker(host, "rm", "-f", id);
  await rm(path, { force: true });
}

/**
 * `docker run -d ...args` on `host` (`docker create ...args` when `made` says so), then `fn(id)`;
 * the container is removed after it, also when `fn` throws (or the run fails once the container
 * exists).
 */
export async function withContainer<T>(
  host: string,
  args: string[],
  fn: (id: string) => Promise<T>,
  made: "run" | "create" = "run",
): Promise<T> {
  const path = cidfile();
  const verb = made === "run" ? ["run", "-d"] : ["create"];
  try {
    return await fn(await docker(host, ...verb, "--cidfile", path, ...args));
  } finally {
    await removeContainerOf(host, path);
  }
}

/** `docker run -d ...args` on `host` for the tests of this file (in `beforeAll`), removed after them. */
export function containerForFile(host: string, args: string[]): void {
  const path = cidfile();
  beforeAll(() => docker(host, "run", "-d", "--cidfile", path, ...args));
  afterAll(() => removeContainerOf(host, path));
}

/** Read `source` to its end, or its error, into `into` (what came before an error stays there). */
export async function readInto<T>(source: AsyncIterable<T>, into: T[]): Promise<void> {
  for await (const item of source) into.push(item);
}
