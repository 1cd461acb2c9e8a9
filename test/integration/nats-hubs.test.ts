/**
 * Hubs over a node on NATS (docs/guide/nats.md): attach, two hub replicas reading one
 * node, a hub's event stream that reconnects, a killed node read. A real nats-server, `docklens
 * node far` (the built CLI) with engine A behind a recording link, and hubs in this process.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNatsNodeBackend } from "../../src/core/engine/nats-node-backend.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { sinceAfterEvent } from "../../src/core/hub/event-hub.ts";
import { parseEngineJson } from "../../src/core/json.ts";
import { joinNatsNodes, type NatsNodes } from "../../src/core/node/nats-nodes.ts";
import { serveNodeOverNats } from "../../src/core/node/nats-node.ts";
import { IMAGE } from "../setup/engine-fixtures.ts";
import { docker, engines, withContainer, writeConfig } from "./helpers.ts";
import { startNatsServer, type NatsServer } from "./nats-server.ts";
import { startNode, stopNode } from "./nats-node-process.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { raw, readStream, startServer, type TestServer } from "./server-helpers.ts";
import { until } from "../support/until.ts";

/** A hub: a live fleet that joined the nodes on NATS, and its serve. */
interface Hub {
  fleet: Fleet;
  nodes: NatsNodes;
  server: TestServer;
  shutdown: AbortController;
}

let server: NatsServer;
/** The recording link in front of engine A, which node far's cluster alpha reaches it through. */
let link: LinkProxy;
let nodeConfig: string;
let hubConfig: string;
let nodeProcess: ChildProcess | undefined;
const hubs: Hub[] = [];

/** Node far with a heartbeat of a minute: a dead node is then seen by a read, not a missed beat. */
const startFar = async () => {
  nodeProcess = await startNode(server.url, "far", nodeConfig, ["--heartbeat", "60"]);
};

async function startHub(): Promise<Hub> {
  const fleet = await loadFleet({ configPath: hubConfig, live: true });
  const shutdown = new AbortController();
  const nodes = await joinNatsNodes(fleet, { watch: shutdown.signal });
  const hub = { fleet, nodes, shutdown, server: await startServer({ fleet }) };
  hubs.push(hub);
  return hub;
}

/** far.alpha's record in `hub`'s GET /list/cluster, once `check` holds of it. */
async function farAlpha(hub: Hub, check: (record: any) => boolean, ms = 15_000): Promise<any> {
  let record: any;
  for (const end = Date.now() + ms; Date.now() < end;) {
    const { json } = await raw(hub.server.port, "/list/cluster");
    record = json.clusters.find((cluster: any) => cluster.name === "far.alpha");
    if (record && check(record)) return record;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`far.alpha never came to the state wanted: ${JSON.stringify(record)}`);
}

/** Engine A's reads of its container list and its event stream so far, as the link saw them. */
function engineReads(): { lists: number; events: number } {
  const count = (pattern: RegExp) => link.requests.filter((line) => pattern.test(line)).length;
  return {
    lists: count(/^GET \/(v[\d.]+\/)?containers\/json(\?|$)/),
    events: count(/^GET \/(v[\d.]+\/)?events(\?|$)/),
  };
}

beforeAll(async () => {
  server = await startNatsServer();
  link = await startProxy({ path: engines.hostA.replace("unix://", "") });
  nodeConfig = await writeConfig("nats-hubs-node.json", {
    clusters: [{ name: "alpha", host: "127.0.0.1", port: link.port }],
  });
  hubConfig = await writeConfig("nats-hubs-hub.json", { nats: { servers: [server.url] } });
  await startFar();
  await startHub();
});

afterAll(async () => {
  for (const hub of hubs) {
    hub.shutdown.abort();
    await hub.nodes.close();
    await hub.server.close();
  }
  await stopNode(nodeProcess);
  await link?.close();
  await server?.close();
});

describe("hubs over node far on NATS", () => {
  it("attaches to a container of far.alpha: its output crosses, and the stream ends with it", async () => {
    const [hub] = hubs;
    await farAlpha(hub!, (record) => !record.error);
    await withContainer(
      engines.hostA,
      [IMAGE, "sh", "-c", "sleep 2; for i in 1 2 3; do echo attached $i; done; sleep 1"],
      async (id) => {
        const { status, items, ended } = await readStream(
          hub!.server.port,
          `/detail/far.alpha/container/${id}/attach`,
        );
        expect(status).toBe(200);
        expect(ended).toBe(true);
        expect(items.filter((item) => item.text).map((item) => item.text)).toEqual([
          "attached 1",
          "attached 2",
          "attached 3",
        ]);
      },
    );
  });

  it("lists and reads far.alpha from two hubs, and its engine sees no more reads than for one", async () => {
    // Of no network: Docker 28 refuses to rename a running container of the default network
    // when the engine has none (engine.sh's --bridge none): "network bridge not found".
    await withContainer(engines.hostA, ["--network", "none", IMAGE, "sleep", "600"], async (id) => {
      const one = await costOfARename(hubs.slice(0, 1), id, "two-hubs-one");
      await startHub();
      const two = await costOfARename(hubs, id, "two-hubs-two");
      // One list read, the node's own mirror's: the hubs' mirrors re-read the container from it.
      expect(one).toEqual({ lists: 1, events: 0 });
      expect(two).toEqual(one);
    });
  });
});

/**
 * The engine's list and event reads while `readers` list far.alpha and follow its events, and
 * container `id` on engine A is renamed `name`: one event, which every hub's mirror re-reads the
 * container for; counted once every hub lists the new name.
 */
async function costOfARename(
  readers: Hub[],
  id: string,
  name: string,
): Promise<{ lists: number; events: number }> {
  const names = async (hub: Hub) => {
    const { status, json } = await raw(hub.server.port, "/list/far.alpha/containers");
    expect(status).toBe(200);
    return json.containers.flatMap((container: any) => container.Names);
  };
  for (const hub of readers) {
    await farAlpha(hub, (record) => !record.error);
    expect((await names(hub)).length).toBeGreaterThan(0);
  }
  const heard = readers.map((hub) =>
    readStream(hub.server.port, "/events?cluster=far.alpha&filter=event%3Drename", 1),
  );
  // The hubs' streams cross before the rename.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = engineReads();
  await docker(engines.hostA, "rename", id, name);
  for (const events of await Promise.all(heard))
    expect(events.items[0].cluster.name).toBe("far.alpha");
  for (const hub of readers)
    while (!(await names(hub)).includes(`/${name}`))
      await new Promise((resolve) => setTimeout(resolve, 100));
  const after = engineReads();
  return { lists: after.lists - before.lists, events: after.events - before.events };
}

/** Engine events of `stream` (JSON lines) until one that `done` holds of; the stream stays open. */
async function eventsUntil(stream: Readable, done: (event: any) => boolean): Promise<any[]> {
  const events: any[] = [];
  let pending = "";
  for await (const chunk of stream) {
    const lines = (pending + String(chunk)).split("\n");
    pending = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      // As the hub parses them: timeNano a BigInt, exact.
      events.push(parseEngineJson(line));
      if (done(events.at(-1))) return events;
    }
  }
  throw new Error(`the stream ended after ${events.length} events`);
}

describe("a hub's event stream of far.alpha that reconnects", () => {
  it("is answered from the node's backlog within it, and by the engine before it", async () => {
    const nats = await connect({ servers: server.url });
    const far = createNatsNodeBackend({ nats, name: "far", cluster: "alpha" });
    const events = (query: Record<string, string> = {}) =>
      far.get("/events", AbortSignal.timeout(20_000), { query, stream: true }) as Promise<Readable>;
    const named = (name: string, action: string) => (event: any) =>
      event.Actor?.Attributes?.name === name && event.Action === action;
    try {
      const first = await events();
      await until(() => false, 500);
      await withContainer(engines.hostA, ["--name", "backlog-a", IMAGE, "true"], async () => {
        const [last] = (await eventsUntil(first, named("backlog-a", "start"))).slice(-1);
        first.destroy();
        const opened = engineReads().events;
        // While no hub reads: the node's one subscription hears it.
        await withContainer(engines.hostA, ["--name", "backlog-b", IMAGE, "true"], async () => {});
        const again = await events({ since: sinceAfterEvent(last)! });
        const replayed = await eventsUntil(again, named("backlog-b", "destroy"));
        again.destroy();
        expect(replayed.some(named("backlog-b", "create"))).toBe(true);
        expect(replayed.some(named("backlog-a", "start"))).toBe(false);
        expect(engineReads().events).toBe(opened);
        // A `since` older than anything the node heard: the engine's own backlog answers.
        const older = await events({ since: String(Math.floor(Date.now() / 1000) - 3600) });
        expect(await until(() => engineReads().events > opened)).toBe(true);
        older.destroy();
      });
    } finally {
      await nats.close();
    }
  });
});

describe("a node killed while hubs read it", () => {
  it("is listed down as soon as a hub reads it, with the reason, and back on its next heartbeat", async () => {
    const [hub] = hubs;
    await farAlpha(hub!, (record) => !record.error);
    await stopNode(nodeProcess, "SIGKILL");
    // Asked again until nats-server has dropped the dead node's subscriptions: a read before that
    // waits for an answer that does not come.
    await expect
      .poll(async () => (await raw(hub!.server.port, "/list/far.alpha/images")).json.error, {
        timeout: 30_000,
        interval: 200,
      })
      .toMatchObject({
        code: "ENGINE_UNREACHABLE",
        message: expect.stringMatching(/node "far" is not on NATS/),
      });
    // At once: the next look at the list shows it, well before three missed beats (180 s).
    const { json } = await raw(hub!.server.port, "/list/cluster");
    const record = json.clusters.find((cluster: any) => cluster.name === "far.alpha");
    expect(record.error.message).toMatch(/node "far" is not on NATS \(last seen \d{4}-/);
    await startFar();
    await farAlpha(hub!, (back) => !back.error);
    expect((await raw(hub!.server.port, "/list/far.alpha/images")).status).toBe(200);
  }, 90_000);
});

describe("a read in flight when the hub loses NATS", () => {
  it("fails at once with the link's loss, not at its time limit; a read on a closed link, at once", async () => {
    const own = await startNatsServer();
    const opened: Array<{ close(): Promise<void> }> = [];
    try {
      const nodeSide = await connect({ servers: own.url });
      opened.push(nodeSide);
      const hubSide = await connect({ servers: own.url });
      opened.push(hubSide);
      // A node that takes the read and never answers it: the read stays in flight.
      const node = serveNodeOverNats({
        nats: nodeSide,
        name: "mute",
        clusters: () => ["alpha"],
        answer: (_, signal) =>
          new Promise((_, reject) =>
            signal.addEventListener("abort", () => reject(new Error("ended by the node"))),
          ),
      });
      opened.unshift(node);
      // The node's subscriptions are at the server before the read goes ("no responders" else).
      await nodeSide.flush();
      const backend = createNatsNodeBackend({ nats: hubSide, name: "mute", cluster: "alpha" });
      // Its own limit is far off: without the fix, the read ends only when this signal does.
      const read = backend.get("/version", AbortSignal.timeout(20_000));
      read.catch(() => {});
      expect(await until(() => node.answering === 1)).toBe(true);
      // The hub's link breaks (and comes back): the node never hears of it, nor answers.
      await hubSide.reconnect();
      await expect(read).rejects.toMatchObject({
        code: "ENGINE_UNREACHABLE",
        message: 'node "mute" over NATS: the link to NATS broke',
      });
      await hubSide.close();
      await expect(backend.get("/version", AbortSignal.timeout(20_000))).rejects.toMatchObject({
        code: "ENGINE_UNREACHABLE",
        message: 'node "mute" over NATS: closed',
      });
    } finally {
      for (const one of opened) await one.close();
      await own.close();
    }
  });
});
