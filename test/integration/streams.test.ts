import { request, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countEngineStreams } from "../../src/core/engine-stream.ts";
import { readContainerLogs } from "../../src/core/logs.ts";
import { loadFleet } from "../../src/core/fleet.ts";
import { cli, docker, engines } from "./helpers.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ log: false });
});
afterAll(() => server.close());

const get = (path: string) => raw(server.port, path);
const cliWithConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

/** Open an NDJSON stream, collect `count` objects, then leave as a client would (or wait for its end). */
function readStream(
  path: string,
  count = Infinity,
  timeoutMs = 15_000,
): Promise<{ status: number; type: string | undefined; items: any[]; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const items: any[] = [];
    let pending = "";
    const timer = setTimeout(
      () =>
        reject(
          new Error(`no ${count} items from ${path} in ${timeoutMs} ms (got ${items.length})`),
        ),
      timeoutMs,
    );
    const req = request({ host: "127.0.0.1", port: server.port, path }, (res: IncomingMessage) => {
      const done = (ended: boolean) => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, type: res.headers["content-type"], items, ended });
      };
      res.on("data", (chunk: Buffer) => {
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop()!;
        items.push(...lines.filter(Boolean).map((line) => JSON.parse(line)));
        if (items.length >= count) {
          req.destroy();
          done(false);
        }
      });
      res.on("end", () => done(true));
    });
    req.on("error", (error) => (items.length >= count ? undefined : reject(error)));
    req.end();
  });
}

/** Engine streams drain asynchronously after a client leaves; wait for none to be open. */
async function noEngineStreamsLeft(): Promise<number> {
  for (let i = 0; i < 50 && countEngineStreams() > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return countEngineStreams();
}

describe("logs", () => {
  it("decodes the multiplexed stream into stdout and stderr lines, last 100 by default", async () => {
    const { status, json } = await get("/detail/alpha/container/web/logs");
    expect(status).toBe(200);
    expect(json.lines.length).toBeGreaterThan(2);
    expect(json.lines.length).toBeLessThanOrEqual(100);
    for (const line of json.lines) {
      expect(line).toEqual({
        stream: expect.stringMatching(/^std(out|err)$/),
        time: null,
        text: expect.stringMatching(line.stream === "stdout" ? /^out \d+$/ : /^err \d+$/),
      });
    }
    expect(new Set(json.lines.map((line: any) => line.stream))).toEqual(
      new Set(["stdout", "stderr"]),
    );
  });

  it("takes tail, stream and timestamps", async () => {
    expect((await get("/detail/alpha/container/web/logs?tail=3")).json.lines).toHaveLength(3);
    const stderr = (
      await get("/detail/alpha/container/web/logs?stream=stderr&timestamps=true&tail=5")
    ).json.lines;
    expect(stderr.length).toBeGreaterThan(0);
    for (const line of stderr)
      expect(line).toEqual({
        stream: "stderr",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/),
        text: expect.stringMatching(/^err \d+$/),
      });
    const all = (await get("/detail/alpha/container/web/logs?tail=all&stream=stdout")).json.lines;
    expect(all[0].text).toBe("out 1");
  });

  it("refuses an unfollowed read over its byte bound, saying how to ask for less", async () => {
    const fleet = await loadFleet({ configPath: engines.configPath });
    try {
      const web = { cluster: "alpha", name: "web" };
      await expect(
        readContainerLogs(web, { fleet, query: { tail: "all" }, maxBytes: 64 }),
      ).rejects.toMatchObject({
        code: "INVALID_QUERY",
        message:
          'the logs of container "web" asked for are over 64 bytes: ask for fewer (tail, since, until) or stream them (follow)',
      });
      // Two short lines are some 30 bytes from the engine but about 100 of JSON: the body counts too.
      await expect(
        readContainerLogs(web, { fleet, query: { tail: 2 }, maxBytes: 80 }),
      ).rejects.toMatchObject({ code: "INVALID_QUERY" });
      expect(
        (await readContainerLogs(web, { fleet, query: { tail: 1 }, maxBytes: 80 })).lines,
      ).toHaveLength(1);
    } finally {
      fleet.close();
    }
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("takes since and until as durations, RFC 3339 and Unix seconds", async () => {
    const all = (await get("/detail/alpha/container/web/logs?tail=all")).json.lines.length;
    expect(
      (await get("/detail/alpha/container/web/logs?tail=all&since=1h")).json.lines.length,
    ).toBeGreaterThanOrEqual(all);
    expect(
      (await get("/detail/alpha/container/web/logs?tail=all&until=2000-01-01T00:00:00Z")).json
        .lines,
    ).toEqual([]);
    expect(
      (
        await get(
          `/detail/alpha/container/web/logs?tail=all&since=${Math.floor(Date.now() / 1000) + 3600}`,
        )
      ).json.lines,
    ).toEqual([]);
  });

  it("reads a TTY container's output as stdout lines", async () => {
    const { json } = await get("/detail/bravo/container/b-tty/logs?tail=2");
    expect(json.lines).toEqual([
      expect.objectContaining({ stream: "stdout", text: expect.stringMatching(/^tty \d+$/) }),
      expect.objectContaining({ stream: "stdout" }),
    ]);
  });

  it.each([
    ["tail=-1", /tail: expected/],
    ["tail=x", /tail: expected/],
    ["since=yesterday", /since: expected/],
    ["until=10q", /until: expected/],
    ["stream=both2", /stream: expected stdout, stderr, both/],
    ["follow=maybe", /follow: expected true, false, 1 or 0/],
    ["tail=1&tail=2", /given more than once/],
    ["taill=5", /unknown query parameter "taill"/],
  ])("rejects %s with 400 INVALID_QUERY", async (query, message) => {
    const response = await get(`/detail/alpha/container/web/logs?${query}`);
    expect(response.status).toBe(400);
    expect(response.json.error).toEqual({
      code: "INVALID_QUERY",
      message: expect.stringMatching(message),
    });
  });

  it("follow=true streams new lines as NDJSON and closes the engine stream when the client leaves", async () => {
    const { status, type, items, ended } = await readStream(
      "/detail/alpha/container/web/logs?follow=true&tail=0",
      3,
    );
    expect(status).toBe(200);
    expect(type).toBe("application/x-ndjson");
    expect(ended).toBe(false);
    for (const item of items)
      expect(item).toEqual({
        stream: expect.stringMatching(/^std(out|err)$/),
        time: null,
        text: expect.stringMatching(/^(out|err) \d+$/),
      });
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("follow=true ends when the container stops", async () => {
    await docker(
      engines.adminB,
      "run",
      "-d",
      "--name",
      "short-lived",
      "local/busybox:1",
      "sh",
      "-c",
      "echo one; sleep 2; echo two",
    );
    try {
      const { items, ended } = await readStream(
        "/detail/bravo/container/short-lived/logs?follow=true",
      );
      expect(ended).toBe(true);
      expect(items.map((item) => item.text)).toEqual(["one", "two"]);
      expect(await noEngineStreamsLeft()).toBe(0);
    } finally {
      await docker(engines.adminB, "rm", "-f", "short-lived");
    }
  });
});

describe("attach", () => {
  it("streams live output as NDJSON { stream, text } and closes the engine stream when the client leaves", async () => {
    const { status, type, items } = await readStream("/detail/alpha/container/web/attach", 2);
    expect(status).toBe(200);
    expect(type).toBe("application/x-ndjson");
    for (const item of items)
      expect(item).toEqual({
        stream: expect.stringMatching(/^std(out|err)$/),
        text: expect.stringMatching(/^(out|err) \d+$/),
      });
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("is 409 for a stopped container and 404 for an unknown one", async () => {
    expect((await get("/detail/alpha/container/failed/attach")).json.error.code).toBe(
      "CONTAINER_NOT_RUNNING",
    );
    expect((await get("/detail/alpha/container/fresh/attach")).status).toBe(409);
    expect((await get("/detail/alpha/container/nope/attach")).status).toBe(404);
  });

  it("answers HEAD with the headers only, and leaves no engine stream open", async () => {
    const head = await raw(server.port, "/detail/alpha/container/web/attach", { method: "HEAD" });
    expect(head).toMatchObject({ status: 200, text: "" });
    expect(head.headers["content-type"]).toBe("application/x-ndjson");
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("fails before streaming: an unreachable engine is a 502 JSON error, not a 200 stream", async () => {
    const dead = await get("/detail/dead/container/web/logs?follow=true");
    expect(dead.status).toBe(502);
    expect(dead.headers["content-type"]).toBe("application/json");
    expect((await get("/detail/alpha/container/nope/logs?follow=true")).json.error.code).toBe(
      "CONTAINER_NOT_FOUND",
    );
  });
});

describe("stats", () => {
  it("gives one sample with a docker stats summary in range and the engine's body", async () => {
    const { status, json } = await get("/detail/alpha/container/web/stats");
    expect(status).toBe(200);
    const { summary, raw: body } = json;
    expect(summary.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(summary.cpuPercent).toBeLessThanOrEqual(100 * (body.cpu_stats.online_cpus || 64));
    expect(summary.memoryUsage).toBeGreaterThan(0);
    expect(summary.memoryUsage).toBeLessThanOrEqual(summary.memoryLimit);
    expect(summary.memoryPercent).toBeCloseTo((summary.memoryUsage / summary.memoryLimit) * 100, 6);
    expect(summary.pids).toBeGreaterThanOrEqual(1);
    for (const key of ["netRx", "netTx", "blockRead", "blockWrite"])
      expect(summary[key]).toBeGreaterThanOrEqual(0);
    expect(body.name).toBe("/web");
    expect(body.precpu_stats).toBeDefined();
  });

  it("passes integers beyond 2^53 through exactly, in one sample, in a stream and in the CLI's --json", async () => {
    // The engine's own text: a cgroup v1 host sends hierarchical_memory_limit = 2^63 - 4096 and the like.
    const engine = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          socketPath: engines.hostA.replace("unix://", ""),
          path: "/containers/web/stats?stream=false",
        },
        (res) => {
          let text = "";
          res
            .on("data", (chunk: Buffer) => (text += chunk.toString()))
            .on("end", () => resolve(text));
        },
      );
      req.on("error", reject).end();
    });
    const big = [...engine.matchAll(/"(\w+_limit)":(\d{16,})/g)].filter(
      ([, , digits]) => !Number.isSafeInteger(Number(digits)),
    );
    expect(big.length, "the engine sent no integer beyond 2^53 to check with").toBeGreaterThan(0);
    const one = (await get("/detail/alpha/container/web/stats")).text;
    const streamed = await new Promise<string>((resolve) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/detail/alpha/container/web/stats?stream=true",
        },
        (res) => {
          res.once("data", (chunk: Buffer) => {
            resolve(chunk.toString());
            req.destroy();
          });
        },
      );
      req.end();
    });
    const cli = (await cliWithConfig("stats", "alpha", "web", "--json")).stdout;
    for (const [, key, digits] of big) {
      for (const text of [one, streamed, cli]) expect(text).toContain(`"${key}":${digits}`);
    }
  });

  it("stream=true gives one object per engine sample and stops when the client leaves", async () => {
    const { type, items } = await readStream("/detail/alpha/container/web/stats?stream=true", 2);
    expect(type).toBe("application/x-ndjson");
    expect(items).toHaveLength(2);
    for (const item of items) expect(Object.keys(item)).toEqual(["summary", "raw"]);
    expect(await noEngineStreamsLeft()).toBe(0);
  });
});

describe("process", () => {
  it("lists the processes of a running container, ps_args passed through", async () => {
    const { status, json } = await get("/detail/alpha/container/web/process");
    expect(status).toBe(200);
    expect(json.Titles).toContain("PID");
    expect(json.Processes.some((row: string[]) => row.at(-1)!.startsWith("sh -c"))).toBe(true);
    const custom = (await get("/detail/alpha/container/web/process?ps_args=-o%20pid,comm")).json;
    expect(custom.Titles).toEqual(["PID", "COMMAND"]);
  });

  it("is 409 for a stopped container and 400 for ps_args a shell would read", async () => {
    const stopped = await get("/detail/alpha/container/failed/process");
    expect(stopped.status).toBe(409);
    expect(stopped.json.error).toEqual({
      code: "CONTAINER_NOT_RUNNING",
      message: 'container "failed" of cluster "alpha" is not running',
    });
    expect(
      (await get("/detail/alpha/container/web/process?ps_args=-ef%3B%20reboot")).json.error.code,
    ).toBe("INVALID_QUERY");
  });
});

describe("image, volume and network detail", () => {
  it("takes an image reference raw, percent-encoded, or by id", async () => {
    const id = await docker(engines.hostA, "image", "inspect", "-f", "{{.Id}}", "local/busybox:1");
    for (const name of [
      "local/busybox:1",
      "local%2Fbusybox%3A1",
      id,
      id.slice(7, 19),
      "sha256%3A" + id.slice(7),
    ]) {
      const { status, json } = await get(`/detail/alpha/image/${name}`);
      expect(status, name).toBe(200);
      expect(json.Id).toBe(id);
      expect(json.RepoTags).toEqual(["local/busybox:1"]);
    }
  });

  it("answers 404 IMAGE_NOT_FOUND and 400 INVALID_NAME", async () => {
    expect((await get("/detail/alpha/image/nope:1")).json.error).toEqual({
      code: "IMAGE_NOT_FOUND",
      message: 'image "nope:1" not found in cluster "alpha"',
    });
    for (const name of ["UPPER", "local/../x", "a%3Fb", "local//busybox", "-x"])
      expect((await get(`/detail/alpha/image/${name}`)).json.error.code, name).toBe("INVALID_NAME");
  });

  it("gives a volume normalised as the interface says, and 404 VOLUME_NOT_FOUND", async () => {
    const { json } = await get("/detail/alpha/volume/data");
    expect(json).toMatchObject({
      Name: "data",
      Driver: "local",
      Labels: { purpose: "data", empty: "" },
      Options: null,
    });
    expect(json.CreatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await get("/detail/alpha/volume/plain")).json.Labels).toEqual({});
    expect((await get("/detail/alpha/volume/nope")).json.error.code).toBe("VOLUME_NOT_FOUND");
  });

  it("gives a network by name or id, and 404 NETWORK_NOT_FOUND", async () => {
    const id = await docker(engines.hostA, "network", "inspect", "-f", "{{.Id}}", "lens-net");
    for (const name of ["lens-net", id, id.slice(0, 12)]) {
      const { json } = await get(`/detail/1/network/${name}`);
      expect(json).toMatchObject({
        Id: id,
        Name: "lens-net",
        IPAM: { Config: [{ Subnet: "192.0.2.0/24" }] },
      });
    }
    expect(
      Object.values((await get("/detail/1/network/lens-net")).json.Containers).map(
        (c: any) => c.Name,
      ),
    ).toEqual(["web"]);
    expect((await get("/detail/alpha/network/nope")).json.error.code).toBe("NETWORK_NOT_FOUND");
  });
});
