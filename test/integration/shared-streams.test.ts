import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamContainerStats } from "../../src/core/containers/stats.ts";
import { countEngineStreams } from "../../src/core/engine/engine-stream.ts";
import { type Fleet } from "../../src/core/engine/fleet.ts";
import { containerForFile, engines } from "./helpers.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";
import { startServer, type TestServer } from "./server-helpers.ts";
import { until } from "../support/until.ts";

/** Identical streams share one engine stream (issue 25 item 3, D21). */
let proxy: LinkProxy;
let fleet: Fleet;
let server: TestServer;
const name = `shared-${process.pid}`;
/** Writes a numbered line to stdout every 20 ms, and every third number to stderr too. */
const talker = `shared-logs-${process.pid}`;

beforeAll(async () => {
  // Live, as serve's: its followers of a container's logs share one engine stream.
  ({ proxy, fleet } = await linkedFleet("shared-streams.json", { live: true, graceMs: 500 }));
  server = await startServer({ log: false, fleet });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close().catch(() => undefined);
});
containerForFile(engines.hostA, [
  "--name",
  name,
  "-l",
  "docklens-test=shared",
  "local/busybox:1",
  "sleep",
  "600",
]);
containerForFile(engines.hostA, [
  "--name",
  talker,
  "-l",
  "docklens-test=shared",
  "local/busybox:1",
  "sh",
  "-c",
  "i=0; while true; do i=$((i+1)); echo $i; [ $((i % 3)) = 0 ] && echo e$i >&2; sleep 0.02; done",
]);

/** A client following the container's stats through serve, counting its samples. */
function follower() {
  const seen = { samples: 0 };
  const req = request(
    {
      host: "127.0.0.1",
      port: server.port,
      path: `/detail/linked/container/${name}/stats?stream=true`,
    },
    (res) =>
      res.on("data", (chunk: Buffer) => (seen.samples += chunk.toString().split("\n").length - 1)),
  );
  req.on("error", () => undefined);
  req.end();
  return { seen, leave: () => req.destroy() };
}

/** A client following the talker's logs through serve with `query`, keeping each line. */
function logFollower(query: string) {
  const lines: Array<{ stream: string; time: string | null; text: string }> = [];
  let rest = "";
  const req = request(
    {
      host: "127.0.0.1",
      port: server.port,
      path: `/detail/linked/container/${talker}/logs?follow=true&${query}`,
    },
    (res) =>
      res.on("data", (chunk: Buffer) => {
        const parts = (rest + chunk.toString()).split("\n");
        rest = parts.pop()!;
        for (const part of parts) if (part) lines.push(JSON.parse(part));
      }),
  );
  req.on("error", () => undefined);
  req.end();
  return { lines, leave: () => req.destroy() };
}

/** The numbers of one stream's lines, which must follow each other with none missed or repeated. */
function expectUnbroken(lines: Array<{ stream: string; text: string }>, stream: string): number[] {
  const numbers = lines
    .filter((line) => line.stream === stream)
    .map((line) => Number(line.text.replace(/^e/, "")));
  const step = stream === "stderr" ? 3 : 1;
  const gaps = numbers.slice(1).filter((n, i) => n !== numbers[i]! + step);
  expect(gaps).toEqual([]);
  return numbers;
}

describe("shared container streams", () => {
  it("followers of one container's logs with different tail and since cost one engine stream, each line once", async () => {
    const follows = () => proxy.requests.filter((line) => /\/logs\?.*follow=true/.test(line));
    const reads = () => proxy.requests.filter((line) => /\/logs\?.*follow=false/.test(line));
    const before = {
      follows: follows().length,
      reads: reads().length,
      streams: countEngineStreams(),
    };
    const all = logFollower("tail=all");
    const last = () => Number(all.lines.findLast((line) => line.stream === "stdout")?.text ?? 0);
    // The talker has written for well over a second before the others join.
    expect(await until(() => last() >= 80)).toBe(true);
    const five = logFollower("tail=5&stream=stdout");
    const none = logFollower("tail=0&timestamps=true");
    const recent = logFollower("tail=all&since=1s");
    const target = last() + 100;
    expect(
      await until(() =>
        [all, five, none, recent].every((f) => f.lines.length > 0 && last() >= target),
      ),
    ).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(follows().length - before.follows).toBe(1);
    // Each follower's own history, but none for tail=0.
    expect(reads().length - before.reads).toBe(3);

    const numbers = expectUnbroken(all.lines, "stdout");
    expect(numbers[0]).toBe(1);
    expectUnbroken(all.lines, "stderr");
    expect(five.lines.every((line) => line.stream === "stdout" && line.time === null)).toBe(true);
    expectUnbroken(five.lines, "stdout");
    expect(none.lines.every((line) => typeof line.time === "string")).toBe(true);
    expectUnbroken(none.lines, "stdout");
    expectUnbroken(none.lines, "stderr");
    expect(Number(recent.lines[0]!.text.replace(/^e/, ""))).toBeGreaterThan(1);
    expectUnbroken(recent.lines, "stdout");
    expectUnbroken(recent.lines, "stderr");
    // Everyone reads the same lines where they overlap: the last line of the slowest.
    for (const follower of [five, none, recent]) {
      const ends = expectUnbroken(follower.lines, "stdout").at(-1)!;
      expect(numbers).toContain(ends);
    }
    for (const follower of [all, five, none, recent]) follower.leave();
    expect(await until(() => countEngineStreams() === before.streams)).toBe(true);
  }, 30_000);

  it("two clients following one container's stats cost one engine stream; one leaving leaves the other's", async () => {
    const stats = () => proxy.requests.filter((line) => /\/stats\b/.test(line)).length;
    const before = countEngineStreams();
    const a = follower();
    const b = follower();
    expect(await until(() => a.seen.samples >= 2 && b.seen.samples >= 2)).toBe(true);
    expect(stats()).toBe(1);
    a.leave();
    const now = b.seen.samples;
    expect(await until(() => b.seen.samples >= now + 2)).toBe(true);
    expect(stats()).toBe(1);
    b.leave();
    expect(await until(() => countEngineStreams() === before)).toBe(true);
  });

  it("drops a follower that leaves too much unread, telling it why, while the others go on", async () => {
    const slow = new AbortController();
    const fast = new AbortController();
    const options = { fleet, signal: slow.signal, maxQueuedBytes: 1 } as const;
    const unread = await streamContainerStats({ cluster: "linked", name }, options);
    const read = await streamContainerStats(
      { cluster: "linked", name },
      { fleet, signal: fast.signal },
    );
    let samples = 0;
    while (samples < 3 && !(await read.next()).done) samples++;
    await expect(unread.next()).rejects.toMatchObject({ code: "CLIENT_TOO_SLOW" });
    slow.abort();
    fast.abort();
  });
});
