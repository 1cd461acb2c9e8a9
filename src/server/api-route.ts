// What a route of the HTTP interface is, as the server serves it: the server, the OpenAPI
// document and the tests read the table of them in routes.ts.
import type { H3Event } from "h3";
import type { RouteContext, RouteSpec } from "../operations/route.ts";
import type { InputDecl } from "../operations/input.ts";
import type { QueryParam } from "../operations/input-schema.ts";

export { Streamed, type RouteContext } from "../operations/route.ts";

/** A body that is text, not JSON (the Prometheus exposition). */
export class Text {
  constructor(
    readonly body: string,
    readonly contentType: string,
  ) {}
}

/** A result that sends itself (a node's answer: JSON, the engine's bytes, or its refusal). */
export class SendsItself {
  constructor(readonly send: (event: H3Event, signal: AbortSignal) => Promise<void>) {}
}

/**
 * One route of the HTTP interface as the server serves it: an operation entry's route, its
 * query parameters with their schemas, or one the app serves itself (`/healthz`, `/metrics`).
 */
export interface ApiRoute extends Omit<RouteSpec, "query" | "run"> {
  /** Query parameters it reads, and what each takes; any other is `INVALID_QUERY`. Unset: the query is ignored. */
  query?: Record<string, QueryParam>;
  /** The operation's input, which the query is decoded into (operations/input.ts). */
  input?: InputDecl;
  /** Request headers it reads beyond `Authorization` (`Last-Event-ID` of `/events`), for the document. */
  headers?: Record<string, QueryParam>;
  /** The body is text of this content type, not JSON. */
  text?: string;
  /** Open without a token (docs/http-interface.md, "Bearer token"). */
  public?: boolean;
  /** Whether a request streams, when `ndjson` cannot say (the node route): counted as streams are. */
  streams?(params: Record<string, string>, input: Record<string, unknown>): boolean;
  run(params: Record<string, string>, context: RouteContext): unknown;
}
