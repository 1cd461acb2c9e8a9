import { describe, expect, it } from "vitest";
import { readContainerLogs } from "../../src/core/containers/logs.ts";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { engines, withContainer } from "./helpers.ts";
import { noEngineStreamsLeft, raw, readStream, serverForFile } from "./server-helpers.ts";

/** Logs and attach: reads, follows and their engine streams. */
const server = serverForFile({ log: false });
const get = server.get;

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
      server.port,
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
    const args = [
      "--name",
      "short-lived",
      "local/busybox:1",
      "sh",
      "-c",
      "echo one; sleep 2; echo two",
    ];
    await withContainer(engines.adminB, args, async () => {
      const { items, ended } = await readStream(
        server.port,
        "/detail/bravo/container/short-lived/logs?follow=true",
      );
      expect(ended).toBe(true);
      expect(items.map((item) => item.text)).toEqual(["one", "two"]);
      expect(await noEngineStreamsLeft()).toBe(0);
    });
  });
});

describe("attach", () => {
  it("streams live output as NDJSON { stream, text } and closes the engine stream when the client leaves", async () => {
    const { status, type, items } = await readStream(
      server.port,
      "/detail/alpha/container/web/attach",
      2,
    );
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
