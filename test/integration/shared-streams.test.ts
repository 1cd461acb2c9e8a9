import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamContainerStats } from "../../src/core/containers/stats.ts";
import { countEngineStreams } from "../../src/core/engine/engine-stream.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { docker, engines, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { startServer, type TestServer } from "./server-helpers.ts";

/** Identical streams share one engine stream (issue 25 item 3, D21). */
let proxy: LinkProxy;
let fleet: Fleet;
let server: TestServer;
const name = `shared-${process.pid}`;

beforeAll(async () => {
  proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
  const config = await writeConfig("shared-streams.json", {
    clusters: [{ name: "linked", host: "127.0.0.1", port: proxy.port }],
  });
  fleet = await loadFleet({ configPath: config });
  server = await startServer({ log: false, fleet });
  await docker(
    engines.hostA,
    "run",
    "-d",
    "--name",
    name,
    "-l",
    "docklens-test=shared",
    "local/busybox:1",
    "sleep",
    "600",
  );
});
afterAll(async () => {
  await server?.close();
  await proxy?.close().catch(() => undefined);
  await docker(engines.hostA, "rm", "-f", name).catch(() => undefined);
});

const until = async (ok: () => boolean, ms = 15_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return ok();
};

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

describe("shared container streams", () => {
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
