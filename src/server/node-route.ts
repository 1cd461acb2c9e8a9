// Serve's node route: a hub's engine read of one of this serve's clusters (issue 27, D22),
// answered by the core's answerEngineRead (allow-listed, checked, secrets hidden) under the
// caller's token and its scope, as every route is.
import { once } from "node:events";
import type { H3Event } from "h3";
import type { FieldDecl } from "../operations/input.ts";
import { queryParam } from "../operations/input-schema.ts";
import { SendsItself, type ApiRoute } from "./api-route.ts";
import { sendJson } from "./respond.ts";

const text = (description: string, maxLength: number): FieldDecl => ({
  kind: "pattern",
  description,
  maxLength,
});
const BOOLEAN = text("true, false, 1 or 0", 5);
const TIME = text("Unix seconds, nanoseconds after the point", 22);

/** The engine's query parameters a node takes; answerEngineRead checks each for its path. */
const ENGINE_QUERY: Record<string, FieldDecl> = {
  all: BOOLEAN,
  size: BOOLEAN,
  stream: BOOLEAN,
  stdout: BOOLEAN,
  stderr: BOOLEAN,
  timestamps: BOOLEAN,
  follow: BOOLEAN,
  filters: text("Docker's filters JSON", 8192),
  ps_args: text("Arguments of ps (top)", 64),
  tail: text("all or a number of lines", 10),
  since: TIME,
  until: TIME,
  type: {
    kind: "choices",
    description: "Kinds /system/df reports",
    values: ["image", "container", "volume", "build-cache"],
  },
};

/** Streamed answers: logs, followed or not, stats with stream=true, events and attach. */
const STREAMS = /^(containers\/[^/]+\/(logs|attach)|events)$/;

/**
 * `GET /node/:cluster/engine/:path`: the engine read `GET /<path>?<query>` of a cluster of this
 * serve, for a hub whose config names it among its `nodes`; `attach` is the read-only attach.
 * JSON for a read, the engine's bytes for a stream, and an engine's refusal as its status with
 * `{ "engine": <its body> }`. Any read docklens's core does not make is `READ_NOT_ALLOWED`.
 */
export const NODE_ROUTE: ApiRoute = {
  path: "/node/:cluster/engine/:path",
  rest: true,
  summary:
    "An engine read of a cluster of this serve, for a hub (the reads docklens makes, and only them)",
  schema: "EngineBody",
  schemas: { EngineBody: {} },
  errors: [
    "CLUSTER_NOT_FOUND",
    "READ_NOT_ALLOWED",
    "INVALID_NAME",
    "ENGINE_UNREACHABLE",
    "ENGINE_ERROR",
    "ENGINE_TIMEOUT",
    "TOO_MANY_STREAMS",
    "STREAM_POOL_FULL",
  ],
  input: ENGINE_QUERY,
  query: Object.fromEntries(
    Object.entries(ENGINE_QUERY).map(([name, decl]) => [name, queryParam(decl)]),
  ),
  streams: (params, input) =>
    STREAMS.test(params.path ?? "") || (/\/stats$/.test(params.path ?? "") && isTrue(input.stream)),
  run: async (params, context) => {
    const { answerEngineRead } = await import("../core/node/engine-read.ts");
    // The path's segments came decoded once: encoded again, the core decodes and checks each.
    const segments = params.path!.split("/").map(encodeURIComponent);
    const attach =
      segments.length === 3 && segments[0] === "containers" && segments[2] === "attach";
    const query = Object.fromEntries(
      Object.entries(context.input).filter(([, value]) => value !== undefined),
    ) as Record<string, string | string[]>;
    // With a query, an attach path is a read like any other (and not one a node answers).
    const answer = await answerEngineRead(
      attach && !Object.keys(query).length
        ? { cluster: params.cluster!, attach: decodeURIComponent(segments[1]!) }
        : { cluster: params.cluster!, path: `/${segments.join("/")}`, query },
      context,
    );
    return new SendsItself((event, signal) =>
      answer.kind === "body"
        ? sendJson(event, answer.body, 200)
        : answer.kind === "engine-error"
          ? sendJson(event, { engine: answer.body ?? null }, answer.status)
          : sendBytes(event, answer.chunks, signal),
    );
  },
};

function isTrue(value: unknown): boolean {
  return value === "true" || value === "1";
}

/**
 * The engine's bytes as they come, with backpressure, until they end or the client leaves. A
 * failure after the headers went out cuts the connection: the hub sees its stream broken, as
 * it would see an engine's.
 */
async function sendBytes(
  event: H3Event,
  chunks: AsyncGenerator<Buffer>,
  signal: AbortSignal,
): Promise<void> {
  const { res } = event.node;
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/octet-stream");
  res.flushHeaders();
  try {
    if (event.method === "HEAD") return;
    for await (const chunk of chunks) {
      if (res.writableEnded || res.destroyed) break;
      if (!res.write(chunk)) await once(res, "drain", { signal });
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    await chunks.return(undefined);
  }
}
