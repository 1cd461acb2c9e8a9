import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCluster, type Fleet } from "../../src/core/engine/fleet.ts";
import { hubStreams } from "../../src/core/hub/event-hub.ts";
import { BIN, cli, docker, engines, writeConfig } from "./helpers.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";
import { startServer, type TestServer } from "./server-helpers.ts";
import { until } from "../support/until.ts";

/** One engine event stream per cluster, however many follow it (issue 25, D21). */
let server: TestServer;
let proxy: LinkProxy;
let fleet: Fleet;
/** Long enough that a follower back after a quarter of it is back in time on a loaded machine. */
const GRACE_MS = 2000;

beforeAll(async () => {
  ({ proxy, fleet } = await linkedFleet("hub-events.json", { live: true, graceMs: GRACE_MS }));
  server = await startServer({ log: false, fleet });
});
afterAll(async () => {
  await server.close();
  await proxy.close().catch(() => undefined);
});

const eventStreams = () => proxy.requests.filter((line) => /\/events\b/.test(line)).length;

/** A follower of `/events` that keeps what it read, until `leave`. */
function follower(path: string) {
  const items: any[] = [];
  let pending = "";
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const req = request({ host: "127.0.0.1", port: server.port, path }, (res) => {
    opened();
    res.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines.filter(Boolean)) items.push(JSON.parse(line));
    });
  });
  req.on("error", () => undefined);
  req.end();
  return { items, ready, leave: () => req.destroy() };
}

describe("the engine hub: one /events stream per cluster", () => {
  it("serves 20 followers (with their own filters) from one engine stream, closed a grace period after the last leaves", async () => {
    const before = eventStreams();
    const followers = Array.from({ length: 20 }, (_, index) =>
      follower(index % 2 ? "/events?filter=type%3Dcontainer" : "/events?filter=event%3Ddestroy"),
    );
    await Promise.all(followers.map((one) => one.ready));
    const cluster = resolveCluster("linked", { fleet });
    expect(await until(() => hubStreams(cluster, { fleet }).open)).toBe(true);
    const churn = async () => {
      const id = await docker(
        engines.hostA,
        "create",
        "--label",
        "docklens-test=hub",
        "local/busybox:1",
        "true",
      );
      await docker(engines.hostA, "rm", id);
      return id;
    };
    const sawOf = (id: string) => (one: { items: any[] }, action: string) =>
      one.items.some((item) => item.Actor?.ID === id && item.Action === action);
    // moby answers /events before it subscribes (its handler flushes the headers first), as it
    // does for `docker events`: events count once one has come through to every follower.
    const warmUp = sawOf(await churn());
    expect(await until(() => followers.every((one) => warmUp(one, "destroy")))).toBe(true);
    const saw = sawOf(await churn());
    expect(await until(() => followers.every((one) => saw(one, "destroy")))).toBe(true);
    // Each follower's filter applied as the engine would: destroy-only ones never saw the create.
    expect(followers.filter((one) => saw(one, "create")).length).toBe(10);
    expect(eventStreams() - before).toBe(1);

    for (const one of followers) one.leave();
    expect(await until(() => !hubStreams(cluster, { fleet }).open)).toBe(true);
    // A new follower after the grace period opens the engine's stream again.
    const late = follower("/events");
    await late.ready;
    expect(await until(() => eventStreams() - before === 2)).toBe(true);
    late.leave();
  });

  it("keeps the engine stream through a short absence: a follower back within the grace period reuses it", async () => {
    const first = follower("/events");
    await first.ready;
    const before = eventStreams();
    first.leave();
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 4));
    const second = follower("/events");
    await second.ready;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(eventStreams()).toBe(before);
    second.leave();
  });
});

describe("docklens events with every engine away", () => {
  it("says each failed attempt on stderr and exits 1 once every engine failed within its time limit", async () => {
    const config = await writeConfig("hub-events-down.json", {
      clusters: (JSON.parse(await readFile(engines.configPath, "utf8")).clusters as any[]).filter(
        (cluster) => cluster.name === "dead" || cluster.name === "hang",
      ),
    });
    const result = await cli(["events", "--config", config]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/dead/);
    expect(result.stderr).toMatch(/hang/);
    expect(result.stderr).toMatch(/no engine could be asked for its events/);
  });

  it("keeps asking an engine that is away while another answers, one stderr line per attempt", async () => {
    const config = await writeConfig("hub-events-one-down.json", {
      clusters: [
        { name: "alpha", host: engines.hostA },
        { name: "dead", host: "127.0.0.1", port: 1, timeoutMs: 500 },
      ],
    });
    const child = spawn(process.execPath, [BIN, "events", "--config", config], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "", HOME: engines.tmp, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    // Three attempts, however long the CLI takes to start on a loaded machine.
    const attempts = () => stderr.split("\n").filter((line) => /dead/.test(line)).length;
    await until(() => attempts() > 2, 20_000);
    child.kill("SIGINT");
    await once(child, "exit");
    expect(attempts()).toBeGreaterThan(2);
  });
});
