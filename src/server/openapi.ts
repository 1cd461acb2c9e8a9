import { statusOf, type ErrorCode } from "../core/errors.ts";
import type { ApiRoute } from "./api-route.ts";
import { PATH_PARAMS } from "../operations/path-params.ts";
import { ref, type Schema } from "../operations/schema.ts";
import { CLUSTER_SCHEMAS } from "../operations/bodies/clusters.ts";
import { COMMON_SCHEMAS } from "../operations/bodies/common.ts";
import { CONTAINER_DETAIL_SCHEMAS } from "../operations/bodies/container-detail.ts";
import { CONTAINER_STREAM_SCHEMAS } from "../operations/bodies/container-streams.ts";
import { CONTAINER_SCHEMAS } from "../operations/bodies/containers.ts";
import { OBJECT_SCHEMAS } from "../operations/bodies/objects.ts";
import { SERVER_SCHEMAS } from "../operations/bodies/server.ts";

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  /** The server wants a bearer token: the document says so, and lists 401. */
  token: boolean;
}

/** The OpenAPI 3.1 document of `routes`: GET and HEAD each, with response schemas and errors. */
export function createOpenApiDocument(routes: ApiRoute[], options: OpenApiOptions): Schema {
  const paths: Record<string, Schema> = {};
  for (const route of routes) {
    const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    // Any request may be one the HTTP layer cannot read (too large, malformed): 400 everywhere.
    const errors: ErrorCode[] = [
      ...route.errors,
      ...(route.errors.includes("INVALID_QUERY") ? [] : (["INVALID_QUERY"] as const)),
      "METHOD_NOT_ALLOWED",
      ...(options.token && !route.public ? (["UNAUTHORIZED"] as const) : []),
      // Without a token, a name or a web page serve does not answer (docs/http-interface.md, "Without a token").
      ...(options.token ? [] : (["HOST_NOT_ALLOWED", "ORIGIN_NOT_ALLOWED"] as const)),
      // A client at its cap of streams; docklens's own engine streams of a cluster all taken.
      ...(route.ndjson ? (["TOO_MANY_STREAMS", "STREAM_POOL_FULL"] as const) : []),
    ];
    // A stream is NDJSON, or Server-Sent Events for a client that asks for them; any stream may
    // end with a last line `{ "error": … }` (docs/http-interface.md, "Streams").
    const line = route.ndjson && { oneOf: [ref(route.ndjson.schema), ref("Error")] };
    const ndjson = line
      ? { "application/x-ndjson": { schema: line }, "text/event-stream": { schema: line } }
      : {};
    const json = route.text
      ? { [route.text.split(";")[0]!]: { schema: ref(route.schema) } }
      : route.ndjson?.when === "always"
        ? {}
        : { "application/json": { schema: ref(route.schema) } };
    const responses: Record<string, Schema> = {
      200: { description: route.summary, content: { ...json, ...ndjson } },
    };
    for (const code of errors) {
      const status = String(statusOf(code));
      const known = (responses[status]?.description as string | undefined)?.split(", ") ?? [];
      responses[status] = {
        description: [...known, code].join(", "),
        content: { "application/json": { schema: ref("Error") } },
      };
    }
    const operation = (method: string): Schema => ({
      operationId: `${method}${route.path.replace(/[/:.](\w)/g, (_, c: string) => c.toUpperCase()).replace(/\W/g, "")}`,
      summary: route.summary,
      parameters: [
        ...params.map((param) => ({
          name: param,
          in: "path",
          required: true,
          ...PATH_PARAMS[param]!,
        })),
        ...Object.entries(route.query ?? {}).map(
          ([param, { description, schema, repeatable }]) => ({
            name: param,
            in: "query",
            required: false,
            description,
            schema,
            ...(repeatable ? { style: "form", explode: true } : {}),
          }),
        ),
        ...Object.entries(route.headers ?? {}).map(([header, { description, schema }]) => ({
          name: header,
          in: "header",
          required: false,
          description,
          schema,
        })),
      ],
      // A HEAD response has the headers of the GET and never a body.
      responses:
        method === "head"
          ? Object.fromEntries(
              Object.entries(responses).map(([status, { description }]) => [
                status,
                { description },
              ]),
            )
          : responses,
      // Each operation says what it wants (none without a token), so a generated client sends the
      // token where it is needed.
      security: options.token && !route.public ? [{ bearer: [] }] : [],
    });
    paths[route.path.replace(/:(\w+)/g, "{$1}")] = {
      get: operation("get"),
      head: operation("head"),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "docklens",
      version: "1",
      description:
        "Read-only inspection of registered Docker engines (clusters). GET and HEAD only.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // The serve that sent the document: its host and port are the client's to know.
    servers: [{ url: "/", description: "this docklens serve" }],
    paths,
    components: {
      schemas: componentSchemas(routes),
      ...(options.token ? { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } : {}),
    },
    security: options.token ? [{ bearer: [] }] : [],
  };
}

/** The schemas of the bodies: the shared ones, and those the routes declare for their own. */
function componentSchemas(routes: ApiRoute[]): Record<string, Schema> {
  const schemas: Record<string, Schema> = {
    ...COMMON_SCHEMAS,
    ...SERVER_SCHEMAS,
    ...CLUSTER_SCHEMAS,
    ...CONTAINER_SCHEMAS,
    ...CONTAINER_DETAIL_SCHEMAS,
    ...CONTAINER_STREAM_SCHEMAS,
    ...OBJECT_SCHEMAS,
  };
  for (const [name, schema] of routes.flatMap((route) => Object.entries(route.schemas ?? {}))) {
    if (name in schemas) throw new Error(`two response schemas are named ${name}`);
    schemas[name] = schema;
  }
  return schemas;
}
