import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/ports.ts";
import { cli, engines, spawnServe, withContainer, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { raw, type RawResponse } from "./server-helpers.ts";

/**
 * Nodes over HTTP (issue 27, D22): a `docklens serve` as a node over the test engines (engine A
 * behind a recording link), and a hub (serve and the CLI) whose config names it twice, once
 * with a token that sees everything and once with one scoped to alpha. Every read of
 * `edge.alpha` runs through the hub's core, the node route and the node's allow-list.
 */
const TOKENS = { hub: "hub-token-0123456789", narrow: "narrow-token-0123456789" };
const HUB = { all: "hub-all-0123456789", edge: "hub-edge-0123456789" };
const ENV = {
  PATH: process.env.PATH ?? "",
  HOME: engines.tmp,
  // What this file's hubs remember of their nodes (node cluster ids), apart from other files'.
  DOCKLENS_DATA_DIR: join(engines.tmp, "data-nodes"),
  NODE_HUB: TOKENS.hub,
  NODE_NARROW: TOKENS.narrow,
  EDGE_TOKEN: TOKENS.hub,
  NARROW_TOKEN: TOKENS.narrow,
  DOCKLENS_TOKEN: HUB.all,
  HUB_EDGE: HUB.edge,
};

/** What engine A may be asked through the node: reads docklens makes, and the read-only attach. */
const ALLOWED = new RegExp(
  "^(GET /(v[\\d.]+/)?(_ping|version|info|events|system/df|images/json|volumes|networks" +
    "|containers/json|containers/[\\w.-]+/(json|logs|stats|top)|images/[^?]+/json" +
    "|volumes/[\\w.-]+|networks/[\\w.-]+)(\\?.*)?" +
    "|POST /(v[\\d.]+/)?containers/\\w+/attach\\?stream=true&stdin=false&stdout=true&stderr=true&logs=false)$",
);

interface Served {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** `docklens serve --config <config> --port <port>` in `env`, up once it printed its URL. */
async function serve(config: string, port = 0, env: NodeJS.ProcessEnv = ENV): Promise<Served> {
  const { child, line, stderr } = await spawnServe(["--port", String(port), "--json", "--quiet"], {
    config,
    env,
  });
  if (!line) throw new Error(`serve did not start: ${stderr()}`);
  const { url } = JSON.parse(line.split("\n")[0]!) as { url: string };
  return {
    child,
    port: Number(new URL(url).port),
    stop: async () => {
      // Killed, it has a signalCode and no exitCode: once is enough.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    },
  };
}

const get = (port: number, path: string, token: string, method = "GET"): Promise<RawResponse> =>
  raw(port, path, { method, headers: { authorization: `Bearer ${token}` } });

let proxy: LinkProxy;
let node: Served;
let hub: Served;
let nodePort: number;
let nodeConfig: string;
let hubConfig: string;

beforeAll(async () => {
  proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
  nodePort = await freePort();
  nodeConfig = await writeConfig("nodes-node.json", {
    clusters: [
      { name: "alpha", host: "127.0.0.1", port: proxy.port },
      { name: "bravo", host: engines.hostB },
    ],
    tokens: [
      { name: "hub", env: "NODE_HUB", clusters: ["*"] },
      { name: "narrow", env: "NODE_NARROW", clusters: ["alpha"] },
    ],
  });
  hubConfig = await writeConfig("nodes-hub.json", {
    clusters: [{ name: "home", host: engines.hostB }],
    nodes: [
      { name: "edge", url: `http://127.0.0.1:${nodePort}`, token: { env: "EDGE_TOKEN" } },
      { name: "narrowed", url: `http://127.0.0.1:${nodePort}`, token: { env: "NARROW_TOKEN" } },
    ],
    tokens: [{ name: "edge-only", env: "HUB_EDGE", clusters: ["edge.*"] }],
  });
  node = await serve(nodeConfig, nodePort);
  hub = await serve(hubConfig);
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await node?.stop();
  await proxy?.close();
  await rm(ENV.DOCKLENS_DATA_DIR, { recursive: true, force: true });
});

const names = (body: { clusters: Array<{ name: string }> }) =>
  body.clusters.map((cluster) => cluster.name);

describe("a hub over a node", () => {
  it("lists the node's clusters after its own, as its token at the node sees them", async () => {
    const { status, json } = await get(hub.port, "/list/cluster", HUB.all);
    expect(status).toBe(200);
    expect(names(json)).toEqual(["home", "edge.alpha", "edge.bravo", "narrowed.alpha"]);
    const edge = json.clusters.find((cluster: { name: string }) => cluster.name === "edge.alpha");
    expect(edge).toMatchObject({ source: "node" });
    expect(edge.error).toBeUndefined();
    expect(edge.docker.ID).toBeTruthy();
  });

  it("lists edge.alpha's containers as the node lists alpha's", async () => {
    const [through, straight] = await Promise.all([
      get(hub.port, "/list/edge.alpha/containers", HUB.all),
      get(node.port, "/list/alpha/containers", TOKENS.hub),
    ]);
    expect(through.status).toBe(200);
    const ids = (body: { containers: Array<{ Id: string; Names: string[]; State: string }> }) =>
      body.containers.map(({ Id, Names, State }) => `${Id} ${Names.join()} ${State}`).sort();
    expect(ids(through.json)).toEqual(ids(straight.json));
    expect(through.json.containers.length).toBeGreaterThan(3);
  });

  it("gives a container's detail with its secrets hidden, also at the node's own route", async () => {
    const { status, json } = await get(hub.port, "/detail/edge.alpha/container/web", HUB.all);
    expect(status).toBe(200);
    expect(json.Config.Env).toEqual(
      expect.arrayContaining(["DB_PASSWORD=<redacted>", "API_TOKEN=<redacted>", "PLAIN=visible"]),
    );
    const direct = await get(node.port, "/node/alpha/engine/containers/web/json", TOKENS.hub);
    expect(direct.status).toBe(200);
    expect(direct.text).not.toContain("hunter2");
    expect(direct.text).not.toContain("abc123");
  });

  it("words an engine's refusal as for an engine of its own", async () => {
    const { status, json } = await get(hub.port, "/detail/edge.alpha/container/nope", HUB.all);
    expect(status).toBe(404);
    expect(json.error.code).toBe("CONTAINER_NOT_FOUND");
  });

  it("follows a container's logs, and the disk usage, and the processes", async () => {
    const followed = await streamWithToken(
      hub.port,
      "/detail/edge.alpha/container/web/logs?follow=true&tail=1",
      HUB.all,
      2,
    );
    expect(followed.length).toBe(2);
    expect(followed[1].text).toBeTruthy();
    const df = await get(hub.port, "/list/edge.alpha/df", HUB.all);
    expect(df.status).toBe(200);
    expect(df.json.summary.length).toBeGreaterThan(0);
    const top = await get(hub.port, "/detail/edge.alpha/container/web/process", HUB.all);
    expect(top.status).toBe(200);
    expect(top.json.Processes.length).toBeGreaterThan(0);
    const stats = await get(hub.port, "/detail/edge.alpha/container/web/stats", HUB.all);
    expect(stats.status).toBe(200);
    expect(stats.json.summary).toBeTruthy();
    const [sample] = await streamWithToken(
      hub.port,
      "/detail/edge.alpha/container/web/stats?stream=true",
      HUB.all,
      1,
    );
    expect(sample.summary).toBeTruthy();
    const [line] = await streamWithToken(
      hub.port,
      "/detail/edge.alpha/container/web/attach",
      HUB.all,
      1,
    );
    expect(line.text).toMatch(/^(out|err) \d+$/);
  });

  it("passes events across", async () => {
    const events = streamWithToken(
      hub.port,
      "/events?cluster=edge.alpha",
      HUB.all,
      1,
      (item) => item.Actor?.Attributes?.name === "node-event",
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await withContainer(
      engines.hostA,
      ["--name", "node-event", "local/busybox:1", "sleep", "5"],
      async () => {
        const [event] = await events;
        expect(event.cluster.name).toBe("edge.alpha");
      },
    );
  });

  it("shows a token scoped to edge.* only the edge clusters", async () => {
    const { json } = await get(hub.port, "/list/cluster", HUB.edge);
    expect(names(json)).toEqual(["edge.alpha", "edge.bravo"]);
    expect((await get(hub.port, "/list/home/containers", HUB.edge)).status).toBe(404);
  });

  it("serves the CLI too", async () => {
    const result = await cli(["containers", "edge.alpha", "--json", "--config", hubConfig], {
      env: ENV,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { containers: Array<{ Names: string[] }> };
    expect(body.containers.map((item) => item.Names[0])).toContain("/web");
  });
});

describe("the node route, asked straight", () => {
  it.each([
    ["/node/alpha/engine/containers/web/exec", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/web/archive?path=/etc", 400, "INVALID_QUERY"],
    ["/node/alpha/engine/containers/web/archive", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/web/export", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/images/local%2Fbusybox%3A1/get", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/../images/json", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/%2e%2e/json", 400, "INVALID_NAME"],
    ["/node/alpha/engine/containers/..%2F..%2Fimages%2Fjson/json", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/a%20b/json", 400, "INVALID_NAME"],
    ["/node/alpha/engine/containers/web%3Fall%3D1/json", 400, "INVALID_NAME"],
    ["/node/alpha/engine/v1.41/containers/json", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/_ping", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/web/top?ps_args=e", 400, "INVALID_QUERY"],
    ["/node/alpha/engine/containers/web/top?ps_args=-ef%20-x", 400, "INVALID_QUERY"],
    [
      "/node/alpha/engine/containers/json?filters=%7B%22x%22%3A%5B%221%22%5D%7D",
      400,
      "INVALID_QUERY",
    ],
    ["/node/alpha/engine/containers/json?filters=nope", 400, "INVALID_QUERY"],
    ["/node/alpha/engine/containers/json?stream=1", 403, "READ_NOT_ALLOWED"],
    ["/node/alpha/engine/containers/json?path=x", 400, "INVALID_QUERY"],
    ["/node/alpha/engine/containers/web/attach?stdin=1", 400, "INVALID_QUERY"],
    ["/node/alpha/engine/containers/web/attach?stream=1", 403, "READ_NOT_ALLOWED"],
    ["/node/nowhere/engine/version", 404, "CLUSTER_NOT_FOUND"],
  ])("GET %s is %i %s", async (path, status, code) => {
    const { status: got, json } = await get(node.port, path, TOKENS.hub);
    expect({ got, code: json?.error?.code }).toEqual({ got: status, code });
  });

  it("refuses every method but GET and HEAD, and a token scoped elsewhere", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      const { status } = await get(
        node.port,
        "/node/alpha/engine/containers/web/json",
        TOKENS.hub,
        method,
      );
      expect(status).toBe(405);
    }
    const scoped = await get(node.port, "/node/bravo/engine/version", TOKENS.narrow);
    expect(scoped.status).toBe(404);
    expect((await get(node.port, "/node/alpha/engine/version", "wrong")).status).toBe(401);
  });

  it("let the engine see only allow-listed reads, through all of this file", () => {
    expect(proxy.requests.length).toBeGreaterThan(10);
    const others = proxy.requests.filter((line) => !ALLOWED.test(line));
    expect(others).toEqual([]);
  });
});

describe("a node that goes away", () => {
  it("leaves its clusters listed with their error, the others fine, and they come back", async () => {
    await node.stop();
    const down = await get(hub.port, "/list/cluster", HUB.all);
    expect(names(down.json)).toEqual(["home", "edge.alpha", "edge.bravo", "narrowed.alpha"]);
    const edge = down.json.clusters.find(
      (cluster: { name: string }) => cluster.name === "edge.alpha",
    );
    expect(edge.error.code).toBe("ENGINE_UNREACHABLE");
    expect(edge.error.message).toMatch(/node "edge" at http:\/\/127\.0\.0\.1:\d+, last seen/);
    const home = down.json.clusters.find((cluster: { name: string }) => cluster.name === "home");
    expect(home.error).toBeUndefined();
    node = await serve(nodeConfig, nodePort);
    // Back by itself: the hub's watch of edge.alpha reconnects with its backoff (10 s at most).
    let up = await get(hub.port, "/list/edge.alpha/containers", HUB.all);
    for (let tries = 0; up.status !== 200 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      up = await get(hub.port, "/list/edge.alpha/containers", HUB.all);
    }
    expect(up.status).toBe(200);
  });

  it("is one entry named after it until it is first reached, then its clusters (serve)", async () => {
    const port = await freePort();
    const late = await writeConfig("nodes-late.json", {
      clusters: [{ name: "home", host: engines.hostB }],
      nodes: [{ name: "late", url: `http://127.0.0.1:${port}`, token: { env: "EDGE_TOKEN" } }],
    });
    const waiting = await serve(late);
    let lateNode: Served | undefined;
    try {
      const before = await get(waiting.port, "/list/cluster", HUB.all);
      expect(names(before.json)).toEqual(["home", "late"]);
      expect(before.json.clusters[1].error.message).toMatch(/cannot reach node "late"/);
      lateNode = await serve(nodeConfig, port);
      let after = before;
      for (let tries = 0; names(after.json).length < 3 && tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        after = await get(waiting.port, "/list/cluster", HUB.all);
      }
      expect(names(after.json)).toEqual(["home", "late.alpha", "late.bravo"]);
    } finally {
      await lateNode?.stop();
      await waiting.stop();
    }
  });

  it("is one entry named after it, with its error, when never reached (the CLI)", async () => {
    const ghost = await writeConfig("nodes-ghost.json", {
      clusters: [{ name: "home", host: engines.hostB }],
      nodes: [
        {
          name: "ghost",
          url: `http://127.0.0.1:${await freePort()}`,
          token: { env: "EDGE_TOKEN" },
        },
      ],
    });
    const result = await cli(["clusters", "--json", "--config", ghost], { env: ENV });
    const body = JSON.parse(result.stdout) as {
      clusters: Array<{ name: string; error?: { code: string } }>;
    };
    expect(body.clusters.map((cluster) => cluster.name)).toEqual(["home", "ghost"]);
    expect(body.clusters[1]!.error!.code).toBe("ENGINE_UNREACHABLE");
  });

  it("keeps a killed node's clusters listed with their error, each id the same in every CLI run and serve", async () => {
    const [northPort, southPort] = [await freePort(), await freePort()];
    const north = await serve(nodeConfig, northPort);
    const south = await serve(nodeConfig, southPort);
    // The user's data directory (XDG's), of this test alone.
    const dataHome = await mkdtemp(join(engines.tmp, "data-"));
    const { DOCKLENS_DATA_DIR: _, ...env } = { ...ENV, XDG_DATA_HOME: dataHome };
    const node = (name: string, port: number) => ({
      name,
      url: `http://127.0.0.1:${port}`,
      token: { env: "EDGE_TOKEN" },
    });
    // The same nodes in either order: which comes first must not decide the ids.
    const [northFirst, southFirst] = (await Promise.all(
      [
        [node("north", northPort), node("south", southPort)],
        [node("south", southPort), node("north", northPort)],
      ].map((nodes, index) =>
        writeConfig(`nodes-ids-${index}.json`, {
          clusters: [{ name: "home", host: engines.hostB }],
          nodes,
        }),
      ),
    )) as [string, string];
    type Listed = Array<{ id: number; name: string; error?: { code: string; message: string } }>;
    const ids = (clusters: Listed) =>
      Object.fromEntries(clusters.map(({ id, name }) => [name, id]));
    const listed = async (config: string) => {
      const result = await cli(["clusters", "--json", "--config", config], { env });
      return (JSON.parse(result.stdout) as { clusters: Listed }).clusters;
    };
    let hubServe: Served | undefined;
    try {
      const first = ids(await listed(northFirst));
      expect(Object.keys(first).sort()).toEqual(
        ["home", "north.alpha", "north.bravo", "south.alpha", "south.bravo"].sort(),
      );
      expect(ids(await listed(southFirst))).toEqual(first);
      await north.stop();
      const down = await listed(southFirst);
      expect(ids(down)).toEqual(first);
      for (const name of ["north.alpha", "north.bravo"])
        expect(down.find((cluster) => cluster.name === name)?.error).toMatchObject({
          code: "ENGINE_UNREACHABLE",
          message: expect.stringMatching(/node "north" at http:\/\/127\.0\.0\.1:\d+, last seen/),
        });
      // serve, twice, remembers them as the CLI does: the same data directory.
      for (let round = 0; round < 2; round++) {
        hubServe = await serve(southFirst, 0, env);
        const { json } = await get(hubServe.port, "/list/cluster", HUB.all);
        expect(ids(json.clusters)).toEqual(first);
        await hubServe.stop();
      }
    } finally {
      await hubServe?.stop();
      await north.stop();
      await south.stop();
      await rm(dataHome, { recursive: true, force: true });
    }
  }, 90_000);

  it("is a config error (exit 2) when a TLS file of it is not there", async () => {
    const node = { name: "edge", url: "https://127.0.0.1:1", token: { env: "EDGE_TOKEN" } };
    const config = await writeConfig("nodes-no-ca.json", {
      clusters: [{ name: "home", host: engines.hostB }],
      nodes: [{ ...node, tls: { ca: `${engines.tmp}/no-such-ca.pem` } }],
    });
    const result = await cli(["clusters", "--config", config], { env: ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nodes\[0\]\.tls\.ca: cannot read the file \(no such file\)/);
  });
});

/** An NDJSON stream with a token: the first `count` items that `keep` keeps. */
function streamWithToken(
  port: number,
  path: string,
  token: string,
  count: number,
  keep: (item: any) => boolean = () => true,
): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const items: any[] = [];
    let pending = "";
    const timer = setTimeout(() => reject(new Error(`no ${count} items from ${path}`)), 15_000);
    const req = request(
      { host: "127.0.0.1", port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.on("data", (chunk: Buffer) => {
          const lines = (pending + chunk.toString()).split("\n");
          pending = lines.pop()!;
          items.push(
            ...lines
              .filter(Boolean)
              .map((line) => JSON.parse(line))
              .filter(keep),
          );
          if (items.length >= count) {
            clearTimeout(timer);
            req.destroy();
            resolve(items.slice(0, count));
          }
        });
        res.on("end", () => reject(new Error(`${path} ended: ${res.statusCode}`)));
      },
    );
    req.on("error", (error) => (items.length >= count ? undefined : reject(error)));
    req.end();
  });
}
