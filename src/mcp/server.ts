// `docklens mcp`: the operations as Model Context Protocol tools over stdio, for agents. Each
// call is checked as a request of its route is (its input decoded by the same rules, its names
// by the core's checks) and answered with the route's JSON body as structured content. A call
// never acts on an engine: every route is a read, and every tool says so (readOnlyHint).
import { setMaxListeners } from "node:events";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../package.json" with { type: "json" };
import { DocklensError, isDocklensError, type ErrorBody } from "../core/errors.ts";
import type { Fleet } from "../core/engine/fleet.ts";
import { openFleet } from "../core/node/open-fleet.ts";
import { toJsonText } from "../core/json.ts";
import { decode } from "../operations/decode.ts";
import { Streamed } from "../operations/route.ts";
import { createTools, type Tool } from "./tools.ts";

/** How long a tool of a stream (attach, events) reads it, and how many of its items at most. */
export const STREAM_WINDOW_MS = 3000;
export const MAX_STREAM_ITEMS = 1000;
/** What the events tool reads without `since`: the last ten minutes. */
const EVENTS_SINCE_SECONDS = 600;

/** Options of {@link serveMcp}. */
export interface McpOptions {
  config?: string;
  dataDir?: string;
}

/**
 * Serve the tools on stdin and stdout until stdin ends, over the engines of the config (or of
 * this machine) and the clusters of its nodes, HTTP and NATS, kept up to date as serve keeps them.
 */
export async function serveMcp(options: McpOptions): Promise<void> {
  const closing = new AbortController();
  const opened = await openFleet({
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    watch: closing.signal,
  });
  const { fleet } = opened;
  const tools = createTools();
  const server = new Server(
    { name: "docklens", version: pkg.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find(({ name }) => name === request.params.name);
    if (!tool)
      return failed({ code: "ROUTE_NOT_FOUND", message: `no tool ${request.params.name}` });
    return callTool(tool, request.params.arguments ?? {}, fleet, extra.signal);
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  closing.abort();
  await opened.close();
}

/** One call of `tool`: its route's body, or the error a request of it would get. */
export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  fleet: Fleet,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  signal.addEventListener("abort", stop, { once: true });
  try {
    const known = [...tool.params, ...Object.keys(tool.input)];
    const unknown = Object.keys(args).find((name) => !known.includes(name));
    if (unknown !== undefined)
      throw new DocklensError(
        "INVALID_QUERY",
        `unknown argument ${JSON.stringify(unknown.slice(0, 40))}; known: ${known.join(", ")}`,
      );
    const params = Object.fromEntries(tool.params.map((name) => [name, pathParam(args, name)]));
    const input = { ...defaults(tool), ...decode(tool.input, args) };
    const context = {
      fleet,
      signal: controller.signal,
      showSecrets: fleet.config.showSecrets ?? false,
      input,
    };
    const result = await tool.route.run(params, context);
    const body = result instanceof Streamed ? await collect(result.items, controller) : result;
    // The body as JSON has it (an event's timeNano a number), an object as the protocol wants.
    const text = toJsonText(body);
    return {
      content: [{ type: "text", text }],
      structuredContent: JSON.parse(text) as Record<string, unknown>,
    };
  } catch (error) {
    if (isDocklensError(error)) return failed(error.toJSON());
    process.stderr.write(`docklens mcp: ${tool.name}: ${(error as Error)?.message}\n`);
    return failed(
      new DocklensError(
        "INTERNAL_ERROR",
        "docklens failed on this call; its stderr says why",
      ).toJSON(),
    );
  } finally {
    signal.removeEventListener("abort", stop);
    stop();
  }
}

/** A path parameter among the arguments: text, which the core then checks as a name. */
function pathParam(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value === "")
    throw new DocklensError(
      "INVALID_NAME",
      `${name}: expected a name, got ${JSON.stringify(value) ?? "none"}`,
    );
  return value;
}

/** What a tool reads when not told: the events of the last ten minutes, up to now. */
function defaults(tool: Tool): { since?: number; until?: number } {
  if (tool.route.path !== "/events") return {};
  const now = Date.now() / 1000;
  return { since: now - EVENTS_SINCE_SECONDS, until: now };
}

/** A stream's items for a tool: until it ends, the window passes or the bound is reached. */
async function collect(
  items: AsyncGenerator<unknown>,
  controller: AbortController,
): Promise<{ items: unknown[]; complete: boolean }> {
  const collected: unknown[] = [];
  const timer = setTimeout(() => controller.abort(), STREAM_WINDOW_MS);
  let complete = true;
  try {
    for await (const item of items) {
      collected.push(item);
      if (collected.length >= MAX_STREAM_ITEMS) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    await items.return(undefined);
  }
  return { items: collected, complete: complete && !controller.signal.aborted };
}

function failed(error: ErrorBody): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message}` }],
    structuredContent: { error },
  };
}
