// What a route of the HTTP interface is, as its operation entry declares it: the server makes
// its route table, its OpenAPI document and its query checks of these (server/routes.ts).
import type { ErrorCode } from "../core/errors.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import type { InputDecl, InputOf } from "./input.ts";
import type { Schema } from "./schema.ts";

/** What a route handler gets besides its path parameters: its input, decoded (input.ts). */
export interface RouteContext<I = Readonly<Record<string, unknown>>> extends CoreOptions {
  showSecrets: boolean;
  input: I;
}

/** A body sent as NDJSON, one object a line, as the items come (`follow`, `stream`, attach). */
export class Streamed {
  /**
   * `compressed`: sent compressed when the client asks, each line flushed as it is written: for
   * a stream of large lines (the watch's snapshots are whole lists).
   */
  constructor(
    readonly items: AsyncGenerator<unknown>,
    readonly compressed = false,
  ) {}
}

/** One route of the HTTP interface, of the operation whose input is `Q`. */
export interface RouteSpec<Q extends InputDecl = InputDecl> {
  path: string;
  summary: string;
  /** Name of the response schema in the OpenAPI document. */
  schema: string;
  /**
   * Schemas declared in bodies/ (where every body's schema is) that only this route's
   * document names, for the document's components.
   */
  schemas?: Record<string, Schema>;
  /** Errors beside 401 (with a token) and 405, which every route may answer. */
  errors: ErrorCode[];
  /**
   * The operation's input, its fields the route's query parameters; any other parameter is
   * `INVALID_QUERY`. Unset: the query is ignored.
   */
  query?: Q;
  /**
   * Parameters other than those of `query` are ignored, not refused, as the first list routes do
   * (docs/http-interface.md, "Query strings").
   */
  otherQueryIgnored?: boolean;
  /** The body is NDJSON of `schema` items: `when` is `"always"`, or the query parameter `when` is true. */
  ndjson?: { when: string; schema: string };
  /** The last parameter takes the rest of the path, `/` included (image references). */
  rest?: boolean;
  /** The core call; it loads the core when it runs, so that declaring it costs the CLI nothing. */
  run(params: Record<string, string>, context: RouteContext<InputOf<Q>>): unknown;
}

/** A route, its handler's input typed by the fields it declares. */
export function defineRoute<const Q extends InputDecl = Record<never, never>>(
  spec: RouteSpec<Q>,
): RouteSpec {
  return spec;
}
