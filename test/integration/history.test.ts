import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/until.ts";
import { cli, docker, engines, spawnServe, writeConfig } from "./helpers.ts";

/**
 * History (issue 46), end to end: serve records a container that logs continuously; it is killed
 * and replaced under its name; what it wrote up to its death, its record and its stats are found
 * by name over HTTP and the CLI, by a token that sees its cluster only; a restart of serve loses
 * nothing the engine still had and keeps nothing twice; a store that cannot be written leaves the
 * live views as they were and says so.
 */
const LABEL = "docklens-test=history";
const NAME = "hist-web";
const HOSTILE = "hist-hostile";
const IMAGE = "local/busybox:1";
/** A line every 20 ms, numbered, so a gap or a line kept twice shows. */
const LOGGER = 'i=0; while true; do i=$((i+1)); echo "line $i"; sleep 0.02; done';
const FULL = "history-full-token";
const RUN = ["run", "-d", "--name"];
const env = { HISTORY_BRAVO_TOKEN: "history-bravo-only" };

let config: string;
let serve: { child: ChildProcess; url: string; stderr: () => string } | undefined;

async function startServe(path = config) {
  const started = await spawnServe(["--json", "--token", FULL], {
    config: path,
    env: { ...process.env, ...env },
  });
  const { url } = JSON.parse(started.line) as { url: string };
  return { child: started.child, url, stderr: started.stderr };
}

async function stopServe(server: { child: ChildProcess } | undefined) {
  if (!server || server.child.exitCode !== null) return;
  const exited = once(server.child, "exit");
  server.child.kill("SIGTERM");
  await exited;
}

async function get<T>(
  path: string,
  token = FULL,
  server = serve!,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

interface Line {
  container: { id: string; name: string };
  time: string;
  text: string;
}
/** Wait for `ok`, and fail naming what did not come. */
async function waitFor(ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  expect(await until(ok, ms, 100)).toBe(true);
}

const lines = async (query = "") =>
  (await get<{ lines: Line[] }>(`/history/logs?container=${NAME}${query}`)).body.lines;

beforeAll(async () => {
  await mkdir(join(engines.tmp, "history"), { recursive: true });
  config = await writeConfig("history.json", {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { id: 7, name: "bravo", host: engines.hostB },
    ],
    tokens: [{ name: "bravo-only", env: "HISTORY_BRAVO_TOKEN", clusters: ["bravo"] }],
    history: {
      path: join(engines.tmp, "history", "history.sqlite"),
      statsInterval: "1s",
      logs: { filter: [`label=${LABEL}`] },
    },
  });
  serve = await startServe();
});

afterAll(async () => {
  await stopServe(serve);
  await docker(engines.hostA, "rm", "-f", NAME, HOSTILE).catch(() => "");
});

describe("history", () => {
  let first: string;
  let lastLine: string;

  it("keeps a killed container's lines up to its death, its record and its stats", async () => {
    first = await docker(engines.hostA, ...RUN, NAME, "-l", LABEL, IMAGE, "sh", "-c", LOGGER);
    await waitFor(async () => (await lines()).length > 20, 20_000);
    // Its stats: a sample a second.
    await waitFor(
      async () =>
        (await get<{ series: unknown[] }>(`/history/stats?container=${NAME}&step=1s`)).body.series
          .length > 0,
      20_000,
    );
    await docker(engines.hostA, "kill", NAME);
    // The last line the engine has: written at most 20 ms before the container died.
    lastLine = (await docker(engines.hostA, "logs", "--tail", "1", NAME)).trim();
    await docker(engines.hostA, "rm", NAME);
    await waitFor(async () => (await lines()).at(-1)?.text === lastLine, 10_000);
    const kept = await lines();
    // From its first line to its last, none missing, none twice.
    expect(kept.map((line) => line.text)).toEqual(
      Array.from({ length: kept.length }, (_, i) => `line ${i + 1}`),
    );
    await waitFor(async () => {
      const { body } = await get<{ containers: Array<{ id: string; removed: string | null }> }>(
        `/history/containers?name=${NAME}&removed=true`,
      );
      return body.containers.some((item) => item.id === first && item.removed !== null);
    });
    const { body } = await get<{ containers: Array<Record<string, unknown>> }>(
      `/history/containers?name=${NAME}`,
    );
    expect(body.containers[0]).toMatchObject({
      cluster: { name: "alpha" },
      id: first,
      name: NAME,
      image: IMAGE,
      state: "exited",
      exitCode: 137,
    });
    const { body: stats } = await get<{
      series: Array<{ container: { id: string }; points: unknown[] }>;
    }>(`/history/stats?container=${NAME}&step=1s`);
    expect(stats.series[0]!.container.id).toBe(first);
    const events = (
      await get<{ events: Array<{ Action: string; Actor: { ID: string } }> }>(
        `/history/events?container=${NAME}`,
      )
    ).body.events
      .filter((event) => event.Actor.ID === first)
      .map((event) => event.Action);
    expect(events).toEqual(expect.arrayContaining(["create", "start", "kill", "die", "destroy"]));
  }, 90_000);

  it("finds the removed one and the one that replaced it by name, over HTTP and the CLI", async () => {
    const second = await docker(
      engines.hostA,
      "run",
      "-d",
      "--name",
      NAME,
      "-l",
      LABEL,
      IMAGE,
      "sh",
      "-c",
      LOGGER,
    );
    await waitFor(async () => (await lines()).some((line) => line.container.id === second), 20_000);
    const ids = new Set((await lines()).map((line) => line.container.id));
    expect(ids).toEqual(new Set([first, second]));
    // The replacement counts from 1 again: its line of that number may be there too.
    const found = await lines(`&grep=^${lastLine}$`);
    expect(found.every((line) => line.text === lastLine)).toBe(true);
    expect(found.map((line) => line.container.id)).toContain(first);

    const history = await cli(["history", "--config", config, "--json"]);
    expect(history.code).toBe(0);
    const removed = (JSON.parse(history.stdout) as { containers: Array<Record<string, unknown>> })
      .containers;
    expect(removed.find((item) => item.id === first)).toMatchObject({ name: NAME, exitCode: 137 });
    expect(removed.some((item) => item.id === second)).toBe(false);
    const table = await cli(["history", "--config", config]);
    expect(table.stdout).toMatch(
      new RegExp(`alpha\\s+${first.slice(0, 12)}\\s+${IMAGE}\\s+exited \\(137\\)`),
    );
    const logs = await cli([
      "history",
      "logs",
      NAME,
      "--config",
      config,
      "--grep",
      `^${lastLine}$`,
    ]);
    expect(logs.stdout).toContain(`alpha/${NAME}@${first.slice(0, 12)} | ${lastLine}`);
  }, 60_000);

  it("shows a token no other cluster's history", async () => {
    const token = env.HISTORY_BRAVO_TOKEN;
    const read = async (path: string, key: string) =>
      (
        (await get<Record<string, Array<{ cluster: { name: string } }>>>(path, token)).body[key] ??
        []
      ).map((item) => item.cluster.name);
    expect(await read(`/history/logs?container=${NAME}`, "lines")).toEqual([]);
    // Bravo's own samples are there; nothing of alpha's anywhere.
    expect(new Set(await read("/history/stats", "series"))).toEqual(new Set(["bravo"]));
    for (const [path, key] of [
      ["/history/containers", "containers"],
      ["/history/events", "events"],
    ])
      expect(
        (await read(path!, key!)).filter((name) => name !== "bravo"),
        path,
      ).toEqual([]);
    const asked = await get<{ error: { code: string } }>(
      `/history/logs?container=${NAME}&cluster=alpha`,
      token,
    );
    expect([asked.status, asked.body.error.code]).toEqual([404, "CLUSTER_NOT_FOUND"]);
  });

  it("loses nothing the engine still had across a restart of serve, and keeps nothing twice", async () => {
    await stopServe(serve);
    // What the container writes while serve is down is still in the engine.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    serve = await startServe();
    const now = Number(
      (await docker(engines.hostA, "logs", NAME)).trim().split("\n").at(-1)!.split(" ")[1],
    );
    const second = (await docker(engines.hostA, "inspect", "-f", "{{.Id}}", NAME)).trim();
    const mine = async () => (await lines()).filter((line) => line.container.id === second);
    await waitFor(async () => (await mine()).length >= now, 20_000);
    const kept = (await mine()).map((line) => line.text);
    expect(kept.slice(0, now)).toEqual(Array.from({ length: now }, (_, i) => `line ${i + 1}`));
    const events = (
      await get<{ events: Array<{ Action: string; Actor: { ID: string } }> }>(
        `/history/events?container=${NAME}`,
      )
    ).body.events.filter((event) => event.Actor.ID === first && event.Action === "die");
    expect(events).toHaveLength(1);
    await docker(engines.hostA, "rm", "-f", NAME);
  }, 60_000);

  it("keeps hostile lines bounded, and the CLI shows them escaped", async () => {
    // A 100 KB line without its newline, control characters, bytes that are not UTF-8.
    const script =
      "printf 'bell\\007 esc\\033[31m x\\377\\376 y\\n'; head -c 100000 /dev/zero | tr '\\0' a; sleep 1";
    await docker(
      engines.hostA,
      "run",
      "-d",
      "--name",
      HOSTILE,
      "-l",
      LABEL,
      IMAGE,
      "sh",
      "-c",
      script,
    );
    const hostile = async () =>
      (await get<{ lines: Line[] }>(`/history/logs?container=${HOSTILE}`)).body.lines;
    await waitFor(async () => (await hostile()).length >= 2, 20_000);
    const [odd, huge] = await hostile();
    expect(odd!.text).toBe("bell\u0007 esc\u001b[31m x\ufffd\ufffd y");
    expect(huge!.text).toBe("a".repeat(16 * 1024));
    const shown = await cli(["history", "logs", HOSTILE, "--config", config]);
    expect(shown.stdout).not.toMatch(/[\u0007\u001b]/);
    expect(shown.stdout).toContain("bell\\u0007 esc\\u001b[31m");
    await docker(engines.hostA, "rm", "-f", HOSTILE);
  }, 60_000);

  it("says once, in a CLI one-off where nothing records, that serve records history", async () => {
    const none = await writeConfig("history-none.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      history: { path: join(engines.tmp, "history", "none.sqlite") },
    });
    const result = await cli(["history", "logs", NAME, "--config", none]);
    expect([result.code, result.stdout.trim()]).toEqual([0, ""]);
    expect(result.stderr.match(/no history here: `docklens serve` records it/g)).toHaveLength(1);
  });

  it("refuses, before it listens, a history.logs.filter the engine alone could apply", async () => {
    const bad = await writeConfig("history-bad-filter.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      history: {
        path: join(engines.tmp, "history", "bad.sqlite"),
        logs: { filter: ["ancestor=x"] },
      },
    });
    const result = await cli(["serve", "--config", bad, "--port", "0"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/history\.logs\.filter: expected keys id, name, label/);
  });

  it("keeps live views working when its store cannot be written, and says so", async () => {
    const broken = await writeConfig("history-broken.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      // A directory: no database can be opened there.
      history: { path: join(engines.tmp, "history") },
    });
    const server = await startServe(broken);
    try {
      const live = await get<{ containers: unknown[] }>("/list/alpha/containers", FULL, server);
      expect(live.status).toBe(200);
      const health = await get<{ history: { recording: boolean; problem: string } }>(
        "/healthz",
        FULL,
        server,
      );
      expect(health.body.history).toMatchObject({
        recording: false,
        problem: expect.stringContaining("cannot open"),
      });
      await waitFor(async () => {
        const metrics = await (
          await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${FULL}` } })
        ).text();
        return /^docklens_history_dropped_total [1-9]/m.test(metrics);
      });
      expect(server.stderr().match(/history \(/g)).toHaveLength(1);
    } finally {
      await stopServe(server);
    }
  }, 60_000);
});
