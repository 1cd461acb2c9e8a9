import { describe, expect, it } from "vitest";
import { cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";
import { noEngineStreamsLeft, raw, readStream, serverForFile } from "./server-helpers.ts";

/** The routes and commands of many containers at once: df, stats of every container, merged logs. */
const server = serverForFile({ log: false });
const get = server.get;
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
const LOGGERS = `filter=${encodeURIComponent("name=^/?(web|b-tty)$")}`;
type Named = { cluster: { name: string }; error?: { code: string } };
const failed = (errors: Named[]) => errors.map((e) => [e.cluster.name, e.error!.code]);
/** The grep test's container, as a selection. */
const PATHO = "cluster=alpha&filter=name%3Dlens-patho";
const DEAD_AND_HUNG = [
  ["dead", "ENGINE_UNREACHABLE"],
  ["hang", "ENGINE_TIMEOUT"],
];

describe("GET /list/:cluster/df, GET /list/df, docklens df", () => {
  it("give each cluster's disk usage, the failed ones in errors; the CLI prints the same body", async () => {
    const one = await get("/list/alpha/df?type=volume");
    expect(one.status).toBe(200);
    // As docker system df counts them (a tmpfs volume is not among them): disk-usage.test.ts.
    expect(one.json.summary).toEqual([
      expect.objectContaining({ type: "Local Volumes", total: one.json.raw.Volumes.length }),
    ]);
    const all = await get("/list/df?type=container");
    expect(all.json.clusters.map((entry: Named) => entry.cluster.name)).toEqual(["alpha", "bravo"]);
    expect(failed(all.json.errors)).toEqual(DEAD_AND_HUNG);
    const body = await cliJson<{ clusters: Array<{ summary: unknown }> }>([
      "df",
      "--type",
      "container",
    ]);
    expect(body.clusters.map((entry) => entry.summary)).toEqual(
      all.json.clusters.map((entry: { summary: unknown }) => entry.summary),
    );
    const table = await withConfig("df", "alpha");
    expect(table.stdout).toMatch(/^CLUSTER\s+TYPE\s+TOTAL\s+ACTIVE\s+SIZE\s+RECLAIMABLE\n/);
  });

  it("refuse a kind they do not know", async () => {
    const bad = await get("/list/alpha/df?type=images");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("INVALID_QUERY");
  });
});

describe("GET /stats and docklens stats without a container", () => {
  it("sample every running container, agreeing with docker ps; a stream gives rounds", async () => {
    const { json } = await get("/stats?cluster=alpha&cluster=bravo");
    const running = await Promise.all(
      [engines.hostA, engines.adminB].map((host) =>
        dockerIds(host, "ps", "-q", "--no-trunc", "--filter", "status=running"),
      ),
    );
    expect(
      json.stats.map((item: { container: { id: string } }) => item.container.id).sort(),
    ).toEqual(running.flat().sort());
    expect(json.errors).toEqual([]);
    const stream = await readStream(server.port, "/stats?stream=true&project=shop", 2);
    expect(stream.type).toBe("application/x-ndjson");
    expect(
      stream.items.map((round) =>
        round.stats
          .map((item: Named & { container: { name: string } }) => item.container.name)
          .sort(),
      ),
    ).toEqual([
      ["shop-db", "shop-web"],
      ["shop-db", "shop-web"],
    ]);
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("prints docker stats' table with a CLUSTER column for one round with --no-stream", async () => {
    const result = await withConfig("stats", "--no-stream", "--project", "shop");
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^CLUSTER\s+CONTAINER ID\s+NAME\s+CPU %/);
    expect(
      lines.slice(1).map((line) =>
        line
          .split(/\s+/)
          .slice(0, 3)
          .join(" ")
          .replace(/ \w{12} /, " "),
      ),
    ).toEqual(["alpha shop-web", "bravo shop-db"]);
    expect(result.stderr).toMatch(/dead: /);
  });
});

describe("GET /logs and docklens logs without a container", () => {
  it("merge the selection's lines in time order, each tagged", async () => {
    const { status, json } = await get(`/logs?tail=3&cluster=alpha&cluster=bravo&${LOGGERS}`);
    expect(status).toBe(200);
    const tags = json.lines.map(
      (line: Named & { container: { name: string } }) =>
        `${line.cluster.name}/${line.container.name}`,
    );
    expect(new Set(tags)).toEqual(new Set(["alpha/web", "bravo/b-tty"]));
    const times = json.lines.map((line: { time: string }) => line.time);
    expect(times).toEqual([...times].sort());
    const result = await withConfig(
      "logs",
      "--cluster",
      "alpha",
      "--filter",
      "name=^/?web$",
      "-n",
      "2",
    );
    expect(result.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^alpha\/web \| (out|\[stderr\] err) \d+$/),
      expect.stringMatching(/^alpha\/web \| (out|\[stderr\] err) \d+$/),
    ]);
    expect((await withConfig("logs", "alpha", "web", "--project", "shop")).code).toBe(2);
  });

  it("follow: the backlog, then new lines, merged, as NDJSON", async () => {
    const stream = await readStream(
      server.port,
      `/logs?follow=true&tail=1&${LOGGERS}&cluster=alpha&cluster=bravo`,
      6,
    );
    expect(stream.status).toBe(200);
    expect(
      stream.items.every((item) => item.cluster && item.container && typeof item.text === "string"),
    ).toBe(true);
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("grep with (a+)+$ over long lines does not hold the server: /healthz answers beside it", async () => {
    const script =
      // One line of 10 KB written 200 times by the shell's own echo: no process per line, which a
      // loaded CI machine made slow enough to take the test past its limit.
      "l=$(head -c 10240 /dev/zero | tr '\\0' a)b; i=0; while [ $i -lt 200 ]; do echo $l; i=$((i+1)); done; echo done; sleep 100000";
    try {
      await docker(
        engines.hostA,
        "run",
        "-d",
        "--name",
        "lens-patho",
        "local/busybox:1",
        "sh",
        "-c",
        script,
      );
      // Its last line says all 2 MB are written; read by tail=1, not all of them each time.
      const lastLine = async () =>
        (await get(`/logs?tail=1&${PATHO}`)).json.lines.map((line: { text: string }) => line.text);
      await expect.poll(lastLine, { timeout: 20_000 }).toEqual(["done"]);
      const grep = get(`/logs?tail=all&${PATHO}&grep=${encodeURIComponent("(a+)+$")}`);
      const started = Date.now();
      const health = await raw(server.port, "/healthz");
      const healthMs = Date.now() - started;
      expect(health.status).toBe(200);
      // A backtracking engine takes exponential time on one such line: the server would not answer at all.
      expect(healthMs).toBeLessThan(5000);
      const { json } = await grep;
      expect(json.lines).toEqual([]);
      const long = await get(`/logs?grep=${"a".repeat(257)}`);
      expect(long.json.error.code).toBe("INVALID_QUERY");
    } finally {
      await docker(engines.hostA, "rm", "-f", "lens-patho").catch(() => undefined);
    }
  }, 60_000);
});
