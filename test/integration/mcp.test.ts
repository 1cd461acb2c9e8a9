import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, engines, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";

/**
 * `docklens mcp` driven by the SDK's own client over stdio, against a real engine behind a
 * recording link: every read is a tool, each answers with its route's body, a hostile argument
 * never reaches the engine, and the engine sees reads alone.
 */
let proxy: LinkProxy;
let client: Client;

/**
 * What the engine may be asked: reads, each of an API docklens uses; attach is a POST that
 * reads a container's output, never its input (stdin=false).
 */
const ALLOWED = new RegExp(
  "^(GET /(v[\\d.]+/)?(_ping|version|info|events|system/df|images/json|volumes|networks" +
    "|containers/json|containers/[\\w.-]+/(json|logs|stats|top)|images/[^?]+/json" +
    "|volumes/[\\w.-]+|networks/[\\w.-]+)(\\?.*)?" +
    "|POST /(v[\\d.]+/)?containers/\\w+/attach\\?stream=true&stdin=false&stdout=true&stderr=true&logs=false)$",
);

/** The arguments each tool is called with: the cluster behind the link, and its items. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  list_cluster: {},
  list_cluster_containers: { cluster: "linked", filter: ["name=^/web$"] },
  list_cluster_networks: { cluster: "linked" },
  list_cluster_volumes: { cluster: "linked" },
  list_cluster_images: { cluster: "linked" },
  list_cluster_df: { cluster: "linked", type: ["volume"] },
  list_containers: { size: true },
  list_images: {},
  events: { since: "1m" },
  list_drift: {},
  list_df: { type: ["image"] },
  logs: { project: "nope-none", tail: 5 },
  stats: { filter: ["name=^/web$"] },
  detail: {},
  detail_cluster: { clusterid: "linked" },
  detail_container: { cluster: "linked", containerName: "web" },
  detail_container_attach: { cluster: "linked", containerName: "web" },
  detail_container_process: { cluster: "linked", containerName: "web", ps_args: "-o pid,comm" },
  detail_container_logs: { cluster: "linked", containerName: "web", tail: "3", timestamps: true },
  detail_container_stats: { cluster: "linked", containerName: "web" },
  detail_image: { cluster: "linked", imageName: "local/busybox:1" },
  detail_volume: { cluster: "linked", volumeName: "data" },
  detail_network: { cluster: "linked", networkName: "lens-net" },
  alerts: {},
  history_containers: {},
  history_events: {},
  history_logs: { container: "web" },
  history_stats: {},
};

beforeAll(async () => {
  proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
  const config = await writeConfig("mcp.json", {
    clusters: [{ name: "linked", host: "127.0.0.1", port: proxy.port }],
  });
  client = new Client({ name: "docklens-test", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--config", config],
      cwd: engines.tmp,
      stderr: "pipe",
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await proxy?.close().catch(() => undefined);
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args });

describe("docklens mcp", () => {
  it("lists every read route as a tool, each read-only, with its arguments' schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(ARGUMENTS).sort());
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description).toBeTruthy();
    }
    const logs = tools.find((tool) => tool.name === "detail_container_logs")!;
    expect(logs.inputSchema.required).toEqual(["cluster", "containerName"]);
    // A tool never follows: the field that would make the answer a stream is not offered.
    expect(Object.keys(logs.inputSchema.properties!)).not.toContain("follow");
    expect(logs.inputSchema.properties!.timestamps).toMatchObject({ type: "boolean" });
  });

  it("gives every argument of every tool a JSON Schema with its type, and no follow it cannot take", async () => {
    const { tools } = await client.listTools();
    const untyped = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {}).flatMap(([name, schema]) => {
        const { type, description } = schema as { type?: unknown; description?: unknown };
        return type && typeof description === "string" ? [] : [`${tool.name}.${name}`];
      }),
    );
    expect(untyped).toEqual([]);
    const logs = tools.find((tool) => tool.name === "detail_container_logs")!;
    expect(logs.inputSchema.properties!.containerName).toMatchObject({
      type: "string",
      description: expect.stringContaining("Container name"),
    });
    expect(logs.inputSchema.properties!.containerName).not.toHaveProperty("schema");
    // A tool answers once: its description offers no follow it does not take.
    expect(logs.description).not.toMatch(/follow=true|NDJSON/);
    expect(logs.description).toMatch(/answered once/);
  });

  it("answers each tool with its route's body as structured content", async () => {
    for (const [name, args] of Object.entries(ARGUMENTS)) {
      const result = await call(name, args);
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      expect(typeof result.structuredContent).toBe("object");
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(
        result.structuredContent,
      );
    }
    const containers = await call("list_cluster_containers", ARGUMENTS.list_cluster_containers!);
    expect(
      (containers.structuredContent as { containers: Array<{ Names: string[] }> }).containers.map(
        (item) => item.Names[0],
      ),
    ).toEqual(["/web"]);
    const lines = await call("detail_container_logs", ARGUMENTS.detail_container_logs!);
    const body = lines.structuredContent as { lines: Array<{ time: string | null }> };
    expect(body.lines).toHaveLength(3);
    expect(body.lines.every((line) => line.time !== null)).toBe(true);
    // A stream's tool reads what comes within its window, then says it stopped there.
    const attach = await call("detail_container_attach", ARGUMENTS.detail_container_attach!);
    expect(attach.structuredContent).toMatchObject({ items: expect.any(Array), complete: false });
  });

  it.each([
    [
      "detail_container",
      { cluster: "linked", containerName: "../../containers/json" },
      "INVALID_NAME",
    ],
    ["detail_container", { cluster: "../../info", containerName: "web" }, "INVALID_NAME"],
    [
      "detail_image",
      { cluster: "linked", imageName: "x/../../../containers/json?all=1" },
      "INVALID_NAME",
    ],
    [
      "detail_container_logs",
      { cluster: "linked", containerName: "web", tail: "x" },
      "INVALID_QUERY",
    ],
    [
      "detail_container_logs",
      { cluster: "linked", containerName: "web", follow: true },
      "INVALID_QUERY",
    ],
    ["list_containers", { filter: ["nope=1"] }, "INVALID_QUERY"],
    ["detail_container", { cluster: "linked" }, "INVALID_NAME"],
  ])("refuses %s %j before any engine call", async (name, args, code) => {
    const before = proxy.requests.length;
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code } });
    expect(proxy.requests.slice(before)).toEqual([]);
  });

  it("names the argument a value is wrong for", async () => {
    const result = await call("detail_container_logs", {
      cluster: "linked",
      containerName: "web",
      tail: "x",
    });
    expect(result.structuredContent).toEqual({
      error: {
        code: "INVALID_QUERY",
        message: 'tail: expected a number of lines or "all", got "x"',
      },
    });
  });

  it("asked the engine nothing but reads", () => {
    expect(proxy.requests.length).toBeGreaterThan(10);
    expect(proxy.requests.filter((line) => !ALLOWED.test(line))).toEqual([]);
  });
});
