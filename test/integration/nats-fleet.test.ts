/**
 * A hub's fleet over NATS as each face opens it (issue 44, items 5 and 6; issue 45, item 4): a
 * real nats-server, `docklens node` processes north and south over the test engines, and the
 * hub's CLI, serve and MCP server, each with a data directory of the test's own.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cli, engines, spawnServe, writeConfig } from "./helpers.ts";
import { startNatsServer, type NatsServer } from "./nats-server.ts";
import { startNode, stopNode } from "./nats-node-process.ts";
import { raw } from "./server-helpers.ts";

/** The hub's environment: its data directory, made for this file, where node cluster ids are kept. */
const ENV: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: engines.tmp };

interface Listed {
  id: number;
  name: string;
  error?: { code: string; message: string };
}

let server: NatsServer;
let nodeConfig: string;
let hubConfig: string;
let dataDir: string;
/** The node processes, by name, and what each wrote on stderr. */
const nodes = new Map<string, { child: ChildProcess; stderr: () => string }>();

async function startFleetNode(name: string): Promise<void> {
  const child = await startNode(server.url, name, nodeConfig, ["--heartbeat", "0.5"]);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  nodes.set(name, { child, stderr: () => stderr });
}

/** `docklens clusters --json` of the hub: each cluster's id, name and error. */
async function listed(): Promise<Listed[]> {
  const result = await cli(["clusters", "--json", "--config", hubConfig], {
    env: ENV,
  });
  return (JSON.parse(result.stdout) as { clusters: Listed[] }).clusters;
}

const ids = (clusters: Listed[]) => Object.fromEntries(clusters.map(({ id, name }) => [name, id]));

beforeAll(async () => {
  server = await startNatsServer();
  nodeConfig = await writeConfig("nats-fleet-node.json", {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { name: "bravo", host: engines.hostB },
    ],
  });
  hubConfig = await writeConfig("nats-fleet-hub.json", {
    clusters: [{ name: "home", host: engines.hostB }],
    nats: { servers: [server.url] },
  });
  dataDir = await mkdtemp(join(engines.tmp, "data-"));
  ENV.DOCKLENS_DATA_DIR = dataDir;
}, 60_000);

afterAll(async () => {
  for (const { child } of nodes.values()) await stopNode(child, "SIGKILL");
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a hub's node clusters over NATS", () => {
  it("keeps their ids in every CLI run whichever node answers, and lists a stopped node's clusters with its error", async () => {
    await startFleetNode("north");
    const first = await listed();
    expect(first.map(({ name }) => name)).toEqual(["home", "north.alpha", "north.bravo"]);
    // North stops (SIGTERM: it says so, and goodbye), south comes: south's clusters are new ones.
    await stopNode(nodes.get("north")!.child);
    expect(nodes.get("north")!.stderr()).toMatch(
      /^docklens node north: SIGTERM: saying goodbye to the hubs$/m,
    );
    await startFleetNode("south");
    const second = await listed();
    expect(ids(second)).toMatchObject(ids(first));
    expect(second.map(({ name }) => name)).toEqual([
      "home",
      "north.alpha",
      "north.bravo",
      "south.alpha",
      "south.bravo",
    ]);
    for (const cluster of second.filter(({ name }) => name.startsWith("north.")))
      expect(cluster.error).toMatchObject({
        code: "ENGINE_UNREACHABLE",
        message: expect.stringMatching(/^node "north": no answer on NATS .*\(last seen \d{4}-/),
      });
    expect(second.find(({ name }) => name === "south.alpha")?.error).toBeUndefined();
    // Both up, then north killed: the same ids each time.
    await startFleetNode("north");
    expect(ids(await listed())).toEqual(ids(second));
    await stopNode(nodes.get("north")!.child, "SIGKILL");
    const killed = await listed();
    expect(ids(killed)).toEqual(ids(second));
    expect(killed.find(({ name }) => name === "north.alpha")?.error?.code).toBe(
      "ENGINE_UNREACHABLE",
    );
  }, 60_000);

  it("serves them with the same ids across a restart, and says how many it serves", async () => {
    const want = ids(await listed());
    for (let round = 0; round < 2; round++) {
      const { child, line, stderr } = await spawnServe(["--json", "--quiet"], {
        config: hubConfig,
        env: ENV,
      });
      try {
        if (!line) throw new Error(`serve did not start: ${stderr()}`);
        const started = JSON.parse(line.split("\n")[0]!) as Record<string, unknown>;
        // home, north's two (down) and south's two.
        expect(started).toMatchObject({ clusters: 5, nodes: 4, nats: server.url });
        const { json } = await raw(Number(new URL(started.url as string).port), "/list/cluster");
        expect(ids(json.clusters)).toEqual(want);
      } finally {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    }
    const text = await spawnServe(["--quiet"], {
      config: hubConfig,
      env: ENV,
    });
    text.child.kill("SIGKILL");
    await once(text.child, "exit");
    expect(text.line).toMatch(
      new RegExp(
        `^docklens: serving 5 clusters on http://127\\.0\\.0\\.1:\\d+, 4 of them from nodes, ` +
          `and the nodes joining over NATS at ${server.url.replace(/\./g, "\\.")}$`,
      ),
    );
  }, 60_000);

  it("shows a node cluster's endpoint in docklens config as the NATS URL the config gave", async () => {
    const result = await cli(["config", "--config", hubConfig], {
      env: ENV,
    });
    expect(result.code).toBe(0);
    const row = result.stdout.split("\n").find((line) => /\ssouth\.alpha\s/.test(line));
    expect(row).toContain(server.url);
    expect(result.stdout).not.toContain(`http://127.0.0.1:${server.port}`);
  });

  it("lists a NATS node's clusters to an MCP client", async () => {
    const client = new Client({ name: "docklens-test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--config", hubConfig],
        cwd: engines.tmp,
        env: ENV,
        stderr: "pipe",
      }),
    );
    try {
      const result = await client.callTool({ name: "list_cluster", arguments: {} });
      const { clusters } = result.structuredContent as { clusters: Listed[] };
      expect(clusters.map(({ name }) => name)).toEqual(
        expect.arrayContaining(["home", "south.alpha", "south.bravo"]),
      );
      expect(clusters.find(({ name }) => name === "south.alpha")?.error).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
