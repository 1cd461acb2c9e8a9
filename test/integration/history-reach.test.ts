import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/until.ts";
import { floodEvents, removeFlood } from "./event-flood.ts";
import { BIN, cli, docker, engines, spawnServe, writeConfig } from "./helpers.ts";

/**
 * `docklens logs`, `events` and `stats` reaching into history with `--since` (issue 46): a
 * container that logged is removed and replaced under its name, and `logs --since` prints the
 * lines of both, each with its id, none twice; `events --since` before the engine's 256 is filled
 * from history; `stats --since` prints the recorded samples; a container that ran before serve
 * started is found by name once removed; where nothing records, the CLI says so once.
 */
const LABEL = "docklens-test=history-reach";
const NAME = "reach-web";
const EARLY = "reach-early";
const IMAGE = "local/busybox:1";
/** A line every 20 ms, numbered, so a gap or a line printed twice shows. */
const LOGGER = 'i=0; while true; do i=$((i+1)); echo "line $i"; sleep 0.02; done';
const TOKEN = "history-reach-token";

let config: string;
let serve: { child: ChildProcess; url: string } | undefined;
let early: string;

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${serve!.url}${path}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return (await response.json()) as T;
}

async function waitFor(ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  expect(await until(ok, ms, 100)).toBe(true);
}

/** Each line of `logs --since` of NAME: its id's first 12 digits and its number. */
function parse(stdout: string): RegExpExecArray[] {
  const lines = stdout
    .trim()
    .split("\n")
    .map((line) => /^alpha\/reach-web@([0-9a-f]{12}) \| line (\d+)$/.exec(line)!);
  expect(lines.every(Boolean)).toBe(true);
  return lines;
}

/** Run a streaming command until its output satisfies `done`, then press Ctrl-C; its output. */
async function followUntil(args: string[], done: (stdout: string) => boolean): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", XDG_DATA_HOME: join(engines.tmp, "xdg-data") },
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (done(stdout)) child.kill("SIGINT");
  });
  const [code] = await once(child, "exit");
  expect(code).toBe(0);
  return stdout;
}

interface Lines {
  lines: Array<{ container: { id: string }; text: string }>;
}

beforeAll(async () => {
  await mkdir(join(engines.tmp, "history-reach"), { recursive: true });
  config = await writeConfig("history-reach.json", {
    clusters: [{ name: "alpha", host: engines.hostA }],
    history: {
      path: join(engines.tmp, "history-reach", "history.sqlite"),
      statsInterval: "1s",
      logs: { filter: [`label=${LABEL}`] },
    },
  });
  // Running before serve starts: no event of its own comes while serve records.
  early = await docker(engines.hostA, "run", "-d", "--name", EARLY, IMAGE, "sleep", "3600");
  const started = await spawnServe(["--json", "--token", TOKEN], { config });
  serve = { child: started.child, url: (JSON.parse(started.line) as { url: string }).url };
}, 60_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null) {
    const exited = once(serve.child, "exit");
    serve.child.kill("SIGTERM");
    await exited;
  }
  await docker(engines.hostA, "rm", "-f", NAME, EARLY).catch(() => "");
  await removeFlood(engines.hostA, LABEL);
});

describe("history reached with --since", () => {
  it("finds by name, once removed, a container that was running before serve started", async () => {
    const records = async () =>
      (
        await get<{ containers: Array<{ id: string; removed: string | null }> }>(
          `/history/containers?name=${EARLY}`,
        )
      ).containers;
    await waitFor(async () => (await records()).some((item) => item.id === early));
    await docker(engines.hostA, "rm", "-f", EARLY);
    await waitFor(async () => (await records()).some((item) => item.removed !== null));
    const result = await cli(["history", "--name", EARLY, "--config", config, "--json"]);
    expect(result.code).toBe(0);
    const [found] = (
      JSON.parse(result.stdout) as {
        containers: Array<{ id: string; inspect: { Config: { Cmd: string[] } } }>;
      }
    ).containers;
    expect(found).toMatchObject({ id: early, name: EARLY, image: IMAGE });
    expect(found!.inspect.Config.Cmd).toEqual(["sleep", "3600"]);
  }, 60_000);

  it("prints a removed container's recorded lines and its replacement's, each with its id, none twice", async () => {
    const run = () =>
      docker(engines.hostA, "run", "-d", "--name", NAME, "-l", LABEL, IMAGE, "sh", "-c", LOGGER);
    const recorded = async (id: string) =>
      (await get<Lines>(`/history/logs?container=${NAME}`)).lines.filter(
        (line) => line.container.id === id,
      ).length;
    const first = await run();
    await waitFor(async () => (await recorded(first)) > 20);
    await docker(engines.hostA, "kill", NAME);
    const lastLine = (await docker(engines.hostA, "logs", "--tail", "1", NAME)).trim();
    await docker(engines.hostA, "rm", NAME);
    await waitFor(async () =>
      (await get<Lines>(`/history/logs?container=${NAME}`)).lines.some(
        (line) => line.text === lastLine,
      ),
    );
    const second = await run();
    // Its lines both recorded and still in the engine: printed once.
    await waitFor(async () => (await recorded(second)) > 20);

    const result = await cli([
      "logs",
      "alpha",
      NAME,
      "--since",
      "10m",
      "-n",
      "all",
      "--config",
      config,
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const shown = parse(result.stdout);
    const numbers = (id: string) =>
      shown.filter(([, of]) => of === id.slice(0, 12)).map(([, , n]) => Number(n));
    const before = numbers(first);
    expect(before).toEqual(Array.from({ length: before.length }, (_, i) => i + 1));
    expect(`line ${before.at(-1)}`).toBe(lastLine);
    const after = numbers(second);
    expect(after.length).toBeGreaterThan(20);
    expect(after).toEqual(Array.from({ length: after.length }, (_, i) => i + 1));
    // The removed one's lines first, then its replacement's.
    expect(shown.findIndex(([, of]) => of === second.slice(0, 12))).toBe(before.length);

    // Followed: the same, then the replacement's new lines, still none twice.
    const followed = await followUntil(
      ["logs", "alpha", NAME, "--since", "10m", "-n", "all", "-f", "--config", config],
      (stdout) => stdout.includes(`@${second.slice(0, 12)} | line ${after.at(-1)! + 25}\n`),
    );
    const went = parse(followed);
    const later = went.filter(([, of]) => of === second.slice(0, 12)).map(([, , n]) => Number(n));
    expect(went.filter(([, of]) => of === first.slice(0, 12)).map(([, , n]) => Number(n))).toEqual(
      before,
    );
    expect(later).toEqual(Array.from({ length: later.length }, (_, i) => i + 1));
    expect(later.length).toBeGreaterThan(after.length + 24);

    // Its recorded samples, a row per step, docker stats' columns after the time.
    const stats = await cli([
      "stats",
      "alpha",
      NAME,
      "--since",
      "10m",
      "--step",
      "1s",
      "--config",
      config,
    ]);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^TIME\s+CLUSTER\s+CONTAINER ID\s+NAME\s+CPU %\s+MEM USAGE/);
    expect(stats.stdout).toMatch(new RegExp(`\\salpha\\s+${first.slice(0, 12)}\\s+${NAME}\\s`));
  }, 120_000);

  it("fills events from history where the engine's backlog no longer reaches", async () => {
    // An event recorded before `since`: history reaches back past it.
    await waitFor(async () =>
      (
        await get<{ events: Array<{ Action: string }> }>(`/history/events?container=${EARLY}`)
      ).events.some((event) => event.Action === "destroy"),
    );
    // A second on, so that no event of the second `since` falls in is before it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const since = Math.floor(Date.now() / 1000);
    await floodEvents(engines.hostA, LABEL);
    const prefix = `flood-${process.pid}-`;
    const flooded = (events: Array<{ Actor: { ID: string } }>) =>
      events.filter((event) => event.Actor.ID.startsWith(prefix)).length;
    await waitFor(
      async () =>
        flooded(
          (
            await get<{ events: Array<{ Actor: { ID: string } }> }>(
              `/history/events?since=${since}`,
            )
          ).events,
        ) === 300,
    );
    const untilTime = String(Math.ceil(Date.now() / 1000) + 1);
    const args = ["events", "alpha", "--since", String(since), "--until", untilTime];
    const result = await cli([...args, "--filter", "type=volume", "--json", "--config", config]);
    expect(result.code).toBe(0);
    const items = result.stdout
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { status?: string; timeNano: string; Actor: { ID: string } },
      );
    expect(items.filter((item) => item.status)).toEqual([]);
    const ours = items.filter((item) => item.Actor.ID.startsWith(prefix));
    expect(ours).toHaveLength(300);
    expect(new Set(ours.map((item) => `${item.timeNano} ${item.Actor.ID}`)).size).toBe(300);
    const table = await cli([...args, "--config", config]);
    expect(table.stderr).not.toContain("reach back");
  }, 120_000);

  it("says once where nothing records, and prints what the engine has", async () => {
    const none = await writeConfig("history-reach-none.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      history: { path: join(engines.tmp, "history-reach", "none.sqlite") },
    });
    const result = await cli([
      "logs",
      "alpha",
      "web",
      "--since",
      "10m",
      "-n",
      "3",
      "--config",
      none,
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("docklens: no history here: `docklens serve` records it\n");
    const web = (await docker(engines.hostA, "inspect", "-f", "{{.Id}}", "web")).trim();
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line.startsWith(`alpha/web@${web.slice(0, 12)} | `)).toBe(true);
  });
});
