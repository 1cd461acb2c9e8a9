// What a route of the HTTP interface is, as its operation entry declares it: the server makes
// its route table, its OpenAPI document and its query checks of these (server/routes.ts).
import type { ErrorCode } from "../core/errors.ts";
import type { FilterKind } from "../core/filter-keys.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import type { QueryInput } from "../core/query.ts";
import type { Schema } from "./schema.ts";

/** What a route handler gets besides its path parameters. */
export interface RouteContext extends CoreOptions {
  showSecrets: boolean;
  /** The query string, one value per name. */
  query: QueryInput;
  /** Every value of the parameters that may repeat (`filter`, `cluster`). */
  lists: Record<string, string[]>;
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

/**
 * A query parameter, by the kind of value it takes; the server turns each kind into the JSON
 * Schema of exactly the values the core accepts (server/query-params.ts), as it does for path
 * parameters. `filter`, `clusters` and `choices` repeat; the others come once, with a
 * description (`name` a name as names.ts checks them, `pattern` any text up to `maxLength`).
 */
export type QueryDecl =
  | { kind: "filter"; of: FilterKind }
  | { kind: "clusters" }
  | { kind: "time" | "boolean" | "tail" | "psArgs"; description: string }
  | { kind: "choice"; description: string; values: readonly string[] }
  | { kind: "choices"; description: string; values: readonly string[] }
  | { kind: "name" | "pattern"; description: string; maxLength: number };

/** One route of the HTTP interface. */
export interface RouteSpec {
  path: string;
  summary: string;
  /** Name of the response schema in the OpenAPI document. */
  schema: string;
  /**
   * Schemas of a body of its own, by name (made with schema.ts), for the document's components:
   * a new route's body is declared here, beside its route; the older ones are in
   * server/openapi-schemas.ts.
   */
  schemas?: Record<string, Schema>;
  /** Errors beside 401 (with a token) and 405, which every route may answer. */
  errors: ErrorCode[];
  /** Query parameters it reads; any other is `INVALID_QUERY`. Unset: the query is ignored. */
  query?: Record<string, QueryDecl>;
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
  run(params: Record<string, string>, context: RouteContext): unknown;
}
