// The MCP server's tools, made of the operation table as the server's routes are: each route a
// tool, its arguments the route's path parameters and the fields of its input, its description
// the route's summary. Every route is a read, so every tool is; none follows a stream
// (docs/guide/mcp.md).
import type { InputDecl } from "../operations/input.ts";
import { queryParam } from "../operations/input-schema.ts";
import { routesOf } from "../operations/operation.ts";
import { PATH_PARAMS } from "../operations/path-params.ts";
import type { RouteSpec } from "../operations/route.ts";
import type { Schema } from "../operations/schema.ts";
import { OPERATIONS } from "../operations/table.ts";

/** A tool: its name, what it says of itself, and the route it reads. */
export interface Tool {
  name: string;
  description: string;
  /** The JSON Schema of its arguments. */
  inputSchema: { type: "object"; properties: Record<string, Schema>; required: string[] };
  route: RouteSpec;
  /** The path parameters among its arguments, in the path's order. */
  params: string[];
  /** The route's input without the field that would make it follow (`follow`, `stream`). */
  input: InputDecl;
}

/**
 * A tool's name, from its route's path: its words, without the parameters but a cluster's in a
 * list of one cluster (`/list/:cluster/containers` is `list_cluster_containers`, beside
 * `/list/containers`'s `list_containers`).
 */
export function toolName(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .flatMap((part) =>
      !part.startsWith(":")
        ? [part]
        : part === ":cluster" && path.startsWith("/list/")
          ? ["cluster"]
          : [],
    )
    .join("_");
}

/**
 * An argument's JSON Schema: a query parameter's, but a boolean is JSON's and a tail a number too.
 * Each has its `type` at the top, as clients that build forms of a tool's arguments read it.
 */
function argumentSchema(field: InputDecl[string]): Schema {
  const { description, schema } = queryParam(field);
  if (field.kind === "boolean") return { description, type: "boolean" };
  if (field.kind === "tail")
    return {
      description,
      type: ["integer", "string"],
      anyOf: [{ type: "integer", minimum: 0 }, schema],
    };
  return { description, ...schema };
}

/** A path parameter's JSON Schema: its description beside its schema, not an OpenAPI parameter. */
function paramSchema(name: string): Schema {
  const { description, schema } = PATH_PARAMS[name]!;
  return { description, ...schema };
}

/**
 * A tool's description: its route's summary, but that a tool answers once: one of a stream reads
 * what comes within its window; one that could follow says it does not (the route's `follow=true`
 * or `stream=true` is no argument of the tool).
 */
function toolDescription(route: RouteSpec): string {
  const when = route.ndjson?.when;
  if (!when) return route.summary;
  if (when === "always")
    return `${route.summary}; as a tool, what comes within a few seconds (at most 1000 items)`;
  const once = `as a tool, answered once (no ${when}: a tool does not follow a stream)`;
  return `${route.summary.replace(/; NDJSON[^;]*$/, "")}; ${once}`;
}

/** The tools of the operation table, in its order. */
export function createTools(): Tool[] {
  return routesOf(OPERATIONS).map((route) => {
    const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    // A tool answers once: the field that would turn the answer into a stream is not offered.
    const when = route.ndjson?.when;
    const input = Object.fromEntries(
      Object.entries(route.query ?? {}).filter(([name]) => name !== when),
    );
    return {
      name: toolName(route.path),
      description: toolDescription(route),
      inputSchema: {
        type: "object",
        properties: {
          ...Object.fromEntries(params.map((name) => [name, paramSchema(name)])),
          ...Object.fromEntries(
            Object.entries(input).map(([name, field]) => [name, argumentSchema(field)]),
          ),
        },
        required: params,
      },
      route,
      params,
      input,
    };
  });
}
