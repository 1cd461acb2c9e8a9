// What a route of the HTTP interface is: the server, the OpenAPI document and the tests read
// the table of them in routes.ts.
import type { ErrorCode } from "../core/errors.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import type { QueryInput } from "../core/query.ts";

/** What a route handler gets besides its path parameters. */
export interface RouteContext extends CoreOptions {
  showSecrets: boolean;
  /** The query string, one value per name. */
  query: QueryInput;
  /** Every value of the parameters that may repeat (`filter`, `cluster`). */
  lists: Record<string, string[]>;
}

/** A body that is text, not JSON (the Prometheus exposition). */
export class Text {
  constructor(
    readonly body: string,
    readonly contentType: string,
  ) {}
}

/** A body sent as NDJSON, one object a line, as the items come (`follow`, `stream`, attach). */
export class Streamed {
  constructor(readonly items: AsyncGenerator<unknown>) {}
}

/** One route of the HTTP interface; the server, the OpenAPI document and the tests read this table. */
export interface ApiRoute {
  path: string;
  summary: string;
  /** Name of the response schema in the OpenAPI document. */
  schema: string;
  /** Errors beside 401 (with a token) and 405, which every route may answer. */
  errors: ErrorCode[];
  /** Query parameters it reads, and what each takes; any other is `INVALID_QUERY`. Unset: the query is ignored. */
  query?: Record<string, QueryParam>;
  /**
   * Parameters other than those of `query` are ignored, not refused, as the first list routes do
   * (docs/http-interface.md, "Query strings").
   */
  otherQueryIgnored?: boolean;
  /** The body is NDJSON of `schema` items: `when` is `"always"`, or the query parameter `when` is true. */
  ndjson?: { when: string; schema: string };
  /** The body is text of this content type, not JSON. */
  text?: string;
  /** The last parameter takes the rest of the path, `/` included (image references). */
  rest?: boolean;
  /** Open without a token (docs/http-interface.md, "Bearer token"). */
  public?: boolean;
  run(params: Record<string, string>, context: RouteContext): unknown;
}

/** A query parameter: what it does, and the JSON Schema of exactly the values the route accepts. */
export interface QueryParam {
  description: string;
  schema: Record<string, unknown>;
  /** Given any number of times (`filter=a=1&filter=b=2`); its schema is then an array's. */
  repeatable?: boolean;
}
