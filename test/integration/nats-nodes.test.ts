/**
 * Nodes over NATS (docs/guide/nats.md): a real nats-server on a loopback port, started and
 * stopped here; real engines behind the node.
 */
import type { Readable } from "node:stream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineBackend } from "../../src/core/engine/engine-backend.ts";
import { fleetEngine, loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { answerEngineRead } from "../../src/core/node/engine-read.ts";
import { createNatsNodeBackend } from "../../src/core/engine/nats-node-backend.ts";
import { serveNodeOverNats, type NatsNode } from "../../src/core/node/nats-node.ts";
import { STREAM_WINDOW } from "../../src/core/engine/nats-protocol.ts";
import { IMAGE } from "../setup/engine-fixtures.ts";
import { cli, dockerIds, engines, withContainer, writeConfig } from "./helpers.ts";
import { joinNatsNodes, type NatsNodes } from "../../src/core/node/nats-nodes.ts";
import { readStream, raw, startServer, type TestServer } from "./server-helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { startNatsServer, type NatsServer } from "./nats-server.ts";
import { startNode, stopNode } from "./nats-node-process.ts";
import { until } from "../support/until.ts";

let server: NatsServer;
let fleet: Fleet;
let nodeConnection: NatsConnection;
let hubConnection: NatsConnection;
let spy: NatsConnection;
let node: NatsNode;
let far: EngineBackend;
/** The recording link in front of engine A, which the node's cluster alpha reaches it through. */
let link: LinkProxy;
let nodeFleet: Fleet;

const signal = () => AbortSignal.timeout(20_000);

beforeAll(async () => {
  // A small max_payload, so that ordinary bodies cross in many messages.
  server = await startNatsServer("max_payload: 4096");
  fleet = await loadFleet({ configPath: engines.configPath });
  link = await startProxy({ path: engines.hostA.replace("unix://", "") });
  nodeFleet = await loadFleet({
    configPath: await writeConfig("nats-node.json", {
      clusters: [
        { name: "alpha", host: "127.0.0.1", port: link.port },
        { name: "bravo", host: engines.hostB },
      ],
    }),
  });
  nodeConnection = await connect({ servers: server.url });
  hubConnection = await connect({ servers: server.url });
  spy = await connect({ servers: server.url });
  node = serveNodeOverNats({
    nats: nodeConnection,
    name: "carrier",
    clusters: () => ["alpha"],
    answer: (read, abort) => answerEngineRead(read, { fleet: nodeFleet, signal: abort }),
  });
  far = createNatsNodeBackend({ nats: hubConnection, name: "carrier", cluster: "alpha" });
});

afterAll(async () => {
  await node?.close();
  await Promise.all([nodeConnection, hubConnection, spy].map((nats) => nats?.close()));
  fleet?.close();
  nodeFleet?.close();
  await link?.close();
  await server?.close();
});

/** Messages of answers of node carrier the spy saw, by kind. */
function countMessages(): { data: number; stop: () => void } {
  const counts = { data: 0, stop: () => subscription.unsubscribe() };
  const subscription = spy.subscribe("docklens.node.carrier.out.*", {
    callback: (_, msg) => void (msg.headers?.get("Docklens-Kind") === "data" && counts.data++),
  });
  return counts;
}

describe("the carrier", () => {
  it("carries a body bigger than max_payload in numbered messages, equal to the engine's", async () => {
    const counted = countMessages();
    await spy.flush();
    const query = { all: true };
    const [overNats, straight] = await Promise.all([
      far.get("/containers/json", signal(), { query }),
      (await fleetEngine(fleet, fleet.config.clusters[0]!)).get("/containers/json", signal(), {
        query,
      }),
    ]);
    // The spy is a connection of its own: what the server sent it before this round trip is counted.
    await spy.flush();
    counted.stop();
    // The engine orders ports as it likes, and "Up 6 seconds" ages: the rest is byte for byte.
    const stable = (list: unknown) =>
      (list as Array<Record<string, unknown>>).map(({ Ports: _, Status: __, ...rest }) => rest);
    expect(stable(overNats)).toEqual(stable(straight));
    expect(JSON.stringify(straight).length).toBeGreaterThan(4096);
    expect(counted.data).toBeGreaterThan(1);
  });

  it("hands on the engine's error status and body", async () => {
    const error = await far.get("/containers/nosuch/json", signal()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 404,
      json: { message: expect.stringMatching(/nosuch/) },
    });
  });

  it("holds back a followed log while the hub does not read, and goes on when it does", async () => {
    await withContainer(
      engines.hostA,
      [IMAGE, "sh", "-c", "i=0; while true; do echo line $i; i=$((i+1)); done"],
      async (id) => {
        const counted = countMessages();
        await spy.flush();
        const stream = (await far.get(`/containers/${id}/logs`, signal(), {
          query: { follow: true, stdout: true },
          stream: true,
        })) as Readable;
        let bytes = 0;
        try {
          stream.pause();
          // The node sends what the hub's buffer takes, then stops reading the engine.
          await until(() => counted.data >= STREAM_WINDOW);
          // However small the engine's chunks (more messages fill the hub's buffer under load):
          // the count stops changing for a second, within 20 s.
          let held = -1;
          for (const end = Date.now() + 20_000; Date.now() < end && counted.data !== held;) {
            held = counted.data;
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
          expect(counted.data).toBe(held);
          expect(stream.readableLength).toBeLessThanOrEqual(
            stream.readableHighWaterMark + STREAM_WINDOW * 4096,
          );
          // Reading again: credit goes back and more comes.
          stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
          stream.resume();
          expect(await until(() => counted.data > held + 4 * STREAM_WINDOW)).toBe(true);
        } finally {
          stream.destroy();
          counted.stop();
        }
        expect(bytes).toBeGreaterThan(0);
        // The hub's cancel ends the node's answer and its engine stream.
        expect(await until(() => node.answering === 0)).toBe(true);
      },
    );
  });

  it("ends a stream with an error when a message of it is lost", async () => {
    await withContainer(
      engines.hostA,
      [IMAGE, "sh", "-c", "while true; do echo x; sleep 1; done"],
      async (id) => {
        const subjects: string[] = [];
        const watch = spy.subscribe("docklens.node.carrier.out.*", {
          callback: (_, msg) => void subjects.push(msg.subject),
        });
        await spy.flush();
        const stream = (await far.get(`/containers/${id}/logs`, signal(), {
          query: { follow: true, stdout: true },
          stream: true,
        })) as Readable;
        const failed = new Promise<Error>((resolve) => stream.on("error", resolve));
        stream.resume();
        await until(() => subjects.length > 0);
        watch.unsubscribe();
        // A message numbered past the next: one between them never came.
        const h = headers();
        h.set("Docklens-Kind", "data");
        h.set("Docklens-Seq", "1000");
        spy.publish(subjects[0]!, "forged", { headers: h });
        expect((await failed).message).toMatch(/lost/);
        expect(await until(() => node.answering === 0)).toBe(true);
      },
    );
  });

  it("says a node that nobody serves is not on NATS", async () => {
    const nobody = createNatsNodeBackend({ nats: hubConnection, name: "nobody", cluster: "alpha" });
    await expect(nobody.get("/version", signal())).rejects.toMatchObject({
      code: "ENGINE_UNREACHABLE",
      message: expect.stringMatching(/"nobody" is not on NATS/),
    });
  });
});

/** The engine reads the node may make (engine-read.ts's READS), as the link sees them. */
const ALLOWED = [
  /^\/(v[\d.]+\/)?(version|info|events|system\/df|images\/json|volumes|networks|containers\/json)(\?|$)/,
  /^\/(v[\d.]+\/)?containers\/[\w.-]+\/(json|logs|stats|top)(\?|$)/,
  /^\/(v[\d.]+\/)?(volumes|networks)\/[\w.-]+(\?|$)/,
  /^\/(v[\d.]+\/)?images\/[\w.:/@-]+\/json(\?|$)/,
];

describe("a hostile NATS client on a node's read subject", () => {
  const read = { cluster: "alpha", id: "h1", credit: 4 };
  const hostile: Array<[string, Uint8Array | string]> = [
    ["not JSON", "GET /containers/json"],
    ["bytes", new Uint8Array([0, 255, 254, 1, 2])],
    ["JSON of the wrong shape", "[1,2,3]"],
    ["a wrong type", JSON.stringify({ ...read, path: 42 })],
    ["an unknown field", JSON.stringify({ ...read, path: "/version", method: "POST" })],
    ["a big message", JSON.stringify({ ...read, path: `/${"a".repeat(3000)}` })],
    ["export", JSON.stringify({ ...read, path: "/containers/web/export" })],
    [
      "archive",
      JSON.stringify({ ...read, path: "/containers/web/archive", query: { path: "/etc" } }),
    ],
    ["exec", JSON.stringify({ ...read, path: "/exec/abc/json" })],
    ["a create", JSON.stringify({ ...read, path: "/containers/create" })],
    ["a way up", JSON.stringify({ ...read, path: "/containers/../../images/json" })],
    ["an encoded way up", JSON.stringify({ ...read, path: "/containers/%2e%2e/json" })],
    ["a query in the path", JSON.stringify({ ...read, path: "/containers/json?all=1" })],
    [
      "a query key not allowed",
      JSON.stringify({ ...read, path: "/containers/json", query: { x: "1" } }),
    ],
    [
      "ps printing the environment",
      JSON.stringify({ ...read, path: "/containers/web/top", query: { ps_args: "e" } }),
    ],
    ["an attach by a bad name", JSON.stringify({ ...read, attach: "../web" })],
    ["an unknown cluster", JSON.stringify({ ...read, cluster: "nosuch", path: "/version" })],
  ];

  it.each(hostile)(
    "gets a clear error for %s, and the engine sees nothing of it",
    async (_, payload) => {
      const before = link.requests.length;
      const answer = await spy.request("docklens.node.carrier.read", payload, { timeout: 5000 });
      const code = answer.headers?.get("Docklens-Error");
      expect(code).toMatch(/^(INVALID_QUERY|INVALID_NAME|READ_NOT_ALLOWED|CLUSTER_NOT_FOUND)$/);
      expect(Number(answer.headers?.get("Docklens-Status"))).toBeGreaterThanOrEqual(400);
      expect(answer.json<{ message: string }>().message).toMatch(/\w/);
      expect(link.requests.slice(before)).toEqual([]);
      expect(node.answering).toBe(0);
    },
  );

  it("ignores a read with no reply subject and hostile credit, and answers the next read", async () => {
    spy.publish("docklens.node.carrier.read", JSON.stringify({ ...read, path: "/version" }));
    spy.publish("docklens.node.carrier.credit.h1", "{nope");
    spy.publish("docklens.node.carrier.credit.h1", JSON.stringify({ credit: 1e9 }));
    await spy.flush();
    await expect(far.get("/version", signal())).resolves.toMatchObject({
      ApiVersion: expect.any(String),
    });
  });

  it("made only allow-listed GETs of the engine, whatever came", () => {
    expect(link.requests.length).toBeGreaterThan(0);
    const others = link.requests.filter(
      (line) => !line.startsWith("GET ") || !ALLOWED.some((pattern) => pattern.test(line.slice(4))),
    );
    expect(others).toEqual([]);
  });
});

/** `docklens node far` serving the node config's clusters narrowed to al*, heartbeat 0.5 s. */
const startFar = (configPath: string) =>
  startNode(server.url, "far", configPath, ["--clusters", "al*", "--heartbeat", "0.5"]);

describe("a hub over NATS, with docklens node far", () => {
  let nodeProcess: ChildProcess | undefined;
  let hubConfig: string;
  let hub: TestServer;
  let hubFleet: Fleet;
  let natsNodes: NatsNodes;
  const shutdown = new AbortController();
  /** far.alpha's record in the hub's GET /list/cluster, once `check` holds of it. */
  const farAlpha = async (check: (record: any) => boolean, ms = 15_000) => {
    let record: any;
    await until(() => false, 0);
    for (const end = Date.now() + ms; Date.now() < end;) {
      const { json } = await raw(hub.port, "/list/cluster");
      record = json.clusters.find((cluster: any) => cluster.name === "far.alpha");
      if (record && check(record)) return record;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`far.alpha never came to the state wanted: ${JSON.stringify(record)}`);
  };

  beforeAll(async () => {
    const nodeConfig = await writeConfig("nats-far.json", {
      clusters: [
        { name: "alpha", host: engines.hostA },
        { name: "bravo", host: engines.hostB },
      ],
    });
    nodeProcess = await startFar(nodeConfig);
    hubConfig = await writeConfig("nats-hub.json", { nats: { servers: [server.url] } });
    hubFleet = await loadFleet({ configPath: hubConfig, live: true });
    natsNodes = await joinNatsNodes(hubFleet, { watch: shutdown.signal });
    hub = await startServer({ fleet: hubFleet });
    (globalThis as { restartFar?: () => Promise<void> }).restartFar = async () => {
      nodeProcess = await startFar(nodeConfig);
    };
  });

  afterAll(async () => {
    shutdown.abort();
    await natsNodes?.close();
    await hub?.close();
    await stopNode(nodeProcess);
  });

  it("lists far.alpha and only it (--clusters al*), as the CLI does", async () => {
    await farAlpha((record) => !record.error);
    const { json } = await raw(hub.port, "/list/cluster");
    // The hub's own engines aside (its config names none: the one the docker CLI would use).
    const nodes = (list: any[]) =>
      list.map((cluster) => cluster.name).filter((name) => name.startsWith("far"));
    expect(nodes(json.clusters)).toEqual(["far.alpha"]);
    const result = await cli(["clusters", "--json", "--config", hubConfig]);
    expect(result.code).toBe(0);
    // The CLI hears every node on NATS: the carrier of the tests above too.
    expect(nodes(JSON.parse(result.stdout).clusters)).toEqual(["far.alpha"]);
    expect(JSON.parse(result.stdout).clusters.map((cluster: any) => cluster.name)).toContain(
      "carrier.alpha",
    );
  });

  it("answers no read of a cluster --clusters left out", async () => {
    const read = { cluster: "bravo", path: "/version", query: {}, id: "narrow1", credit: 1 };
    const answer = await spy.request("docklens.node.far.read", JSON.stringify(read), {
      timeout: 5000,
    });
    expect(answer.headers?.get("Docklens-Error")).toBe("CLUSTER_NOT_FOUND");
  });

  it("lists far.alpha's containers as its engine does, by the route and by the CLI", async () => {
    const ids = await dockerIds(engines.hostA, "ps", "-aq", "--no-trunc");
    const { status, json } = await raw(hub.port, "/list/far.alpha/containers");
    expect(status).toBe(200);
    expect(json.containers.map((container: any) => container.Id).sort()).toEqual(ids);
    const result = await cli(["containers", "far.alpha", "--json", "--config", hubConfig]);
    expect(result.code).toBe(0);
    expect(
      JSON.parse(result.stdout)
        .containers.map((container: any) => container.Id)
        .sort(),
    ).toEqual(ids);
  });

  it("details a container of far.alpha, its secrets hidden by the node", async () => {
    const { status, json } = await raw(hub.port, "/detail/far.alpha/container/web");
    expect(status).toBe(200);
    expect(json.Name).toBe("/web");
    expect(JSON.stringify(json.Config.Env)).not.toContain("hunter2");
  });

  it("follows a log and hears events across", async () => {
    await withContainer(
      engines.hostA,
      [IMAGE, "sh", "-c", "for i in 1 2 3; do echo crossing $i; done; sleep 100000"],
      async (id) => {
        const logs = await readStream(
          hub.port,
          `/detail/far.alpha/container/${id}/logs?follow=true`,
          3,
        );
        expect(logs.status).toBe(200);
        expect(
          logs.items.map((item) => item.text ?? item.line ?? JSON.stringify(item)).join("\n"),
        ).toContain("crossing 3");
        const events = readStream(hub.port, "/events?cluster=far.alpha&filter=type%3Dcontainer", 1);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await withContainer(engines.hostA, [IMAGE, "true"], async () => {});
        const heard = await events;
        expect(heard.status).toBe(200);
        expect(JSON.stringify(heard.items[0])).toContain("container");
      },
    );
  });

  it("lists far.alpha down with the reason and last time seen when the node dies, and back when it returns", async () => {
    await stopNode(nodeProcess, "SIGKILL");
    // Unread (a read would find it gone at once: nats-hubs.test.ts), three missed beats tell.
    const error = () => hubFleet.config.clusters.find((c) => c.name === "far.alpha")?.node?.error;
    expect(await until(() => Boolean(error()))).toBe(true);
    // Three missed beats, or a read of the hub's own (its event stream) finding no responder first.
    expect(error()!.message).toMatch(
      /node "far" (sent no heartbeat for 1.5 s|is not on NATS) \(last seen \d{4}-/,
    );
    const down = await farAlpha((record) => Boolean(record.error));
    expect(down.error.message).toBe(error()!.message);
    await (globalThis as { restartFar?: () => Promise<void> }).restartFar!();
    await farAlpha((record) => !record.error);
  });

  it("lists far.alpha down while NATS is away, and back by itself when it returns", async () => {
    // A precondition, asked again until it holds: on a loaded machine a first read over NATS
    // may pass its 5 s.
    await expect
      .poll(async () => (await raw(hub.port, "/list/far.alpha/containers")).status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(200);
    await server.stop();
    // A read sent as NATS went, before the hub heard of it, waits out its limit (ENGINE_TIMEOUT,
    // in that request's record): the record wanted is the one of the link's loss.
    const down = await farAlpha((record) => /NATS|heartbeat/.test(record.error?.message ?? ""));
    expect(down.error.code).toBe("ENGINE_UNREACHABLE");
    // The hub's mirror of far.alpha is down meanwhile, and its reads fail with its error.
    expect((await raw(hub.port, "/list/far.alpha/containers")).status).toBeGreaterThanOrEqual(500);
    await server.start();
    // Its containers as soon as the hub hears the node again (looked for each millisecond): the
    // mirror lists again then, and a read waits for that list rather than fail with its error.
    const error = () => hubFleet.config.clusters.find((c) => c.name === "far.alpha")?.node?.error;
    for (const end = Date.now() + 20_000; error() && Date.now() < end;)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect((await raw(hub.port, "/list/far.alpha/containers")).status).toBe(200);
    await farAlpha((record) => !record.error);
  }, 90_000);
});

describe("examples/nats/nats-server.conf: a user per node", () => {
  it("lets node far answer a hub, and neither send reads nor hear another node's answers", async () => {
    const example = await readFile(
      join(import.meta.dirname, "../../examples/nats/nats-server.conf"),
      "utf8",
    );
    const passwords = {
      FAR_PASSWORD_BCRYPT: "far-pw",
      EDGE_PASSWORD_BCRYPT: "edge-pw",
      HUB_PASSWORD_BCRYPT: "hub-pw",
    };
    const secured = await startNatsServer(example.replace(/^listen: .*$/m, ""), passwords);
    const as = (user: string, pass: string) => connect({ servers: secured.url, user, pass });
    const [farLink, hubLink, edgeLink] = await Promise.all([
      as("far", "far-pw"),
      as("hub", "hub-pw"),
      as("edge", "edge-pw"),
    ]);
    const farNode = serveNodeOverNats({
      nats: farLink,
      name: "far",
      clusters: () => ["alpha"],
      answer: (read, abort) => answerEngineRead(read, { fleet: nodeFleet, signal: abort }),
    });
    try {
      // Its subscriptions reach the server before the hub asks.
      await farLink.flush();
      const overNats = createNatsNodeBackend({ nats: hubLink, name: "far", cluster: "alpha" });
      await expect(overNats.get("/version", signal())).resolves.toMatchObject({
        ApiVersion: expect.any(String),
      });
      // Node edge may not send reads to far, nor subscribe to far's answers.
      const refused = await edgeLink
        .request("docklens.node.far.read", "{}", { timeout: 1000 })
        .catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
      const errors: string[] = [];
      void (async () => {
        for await (const status of edgeLink.status())
          if (status.type === "error") errors.push(String(status.error));
      })();
      edgeLink.subscribe("docklens.node.far.out.*");
      await edgeLink.flush().catch(() => {});
      await until(() => errors.length > 0, 3000);
      expect(errors.join()).toMatch(/Permissions Violation for Subscription/i);
    } finally {
      await farNode.close();
      await Promise.all([farLink, hubLink, edgeLink].map((link) => link.close()));
      await secured.close();
    }
  });
});
