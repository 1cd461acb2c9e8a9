/**
 * The error codes (docs/http-interface.md, "Error codes"). Among them: `INVALID_CONFIG`, which
 * only the CLI and `serve` start-up report; `AMBIGUOUS_NAME`, an id prefix that several items
 * share; `SHUTTING_DOWN`, the closing line of a stream that `serve` ended as it stopped;
 * `CLIENT_TOO_SLOW`, that of an event stream whose client fell too far behind; `HOST_NOT_ALLOWED`
 * and `ORIGIN_NOT_ALLOWED`, a request without a token from a name or a web page `serve` does not
 * answer; `TOO_MANY_STREAMS`, a client at its cap of open streams; `STREAM_POOL_FULL`, docklens's
 * own pool of engine streams of a cluster full (never blamed on the engine); `LISTEN_FAILED`,
 * `serve` finding its address taken or refused; and `INTERNAL_ERROR`, a bug in docklens (never a
 * stack trace).
 */
export type ErrorCode =
  | "INVALID_NAME"
  | "INVALID_QUERY"
  | "INVALID_CONFIG"
  | "UNAUTHORIZED"
  | "HOST_NOT_ALLOWED"
  | "ORIGIN_NOT_ALLOWED"
  | "CLUSTER_NOT_FOUND"
  | "CONTAINER_NOT_FOUND"
  | "IMAGE_NOT_FOUND"
  | "VOLUME_NOT_FOUND"
  | "NETWORK_NOT_FOUND"
  | "ROUTE_NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONTAINER_NOT_RUNNING"
  | "AMBIGUOUS_NAME"
  | "ENGINE_UNREACHABLE"
  | "ENGINE_ERROR"
  | "ENGINE_TIMEOUT"
  | "SHUTTING_DOWN"
  | "CLIENT_TOO_SLOW"
  | "TOO_MANY_STREAMS"
  | "STREAM_POOL_FULL"
  | "LISTEN_FAILED"
  | "INTERNAL_ERROR"
  // A node's refusal of an engine read docklens's core never makes (src/core/node/engine-read.ts).
  | "READ_NOT_ALLOWED";

const STATUS: Record<ErrorCode, number> = {
  INVALID_NAME: 400,
  INVALID_QUERY: 400,
  INVALID_CONFIG: 500,
  UNAUTHORIZED: 401,
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  CLUSTER_NOT_FOUND: 404,
  CONTAINER_NOT_FOUND: 404,
  IMAGE_NOT_FOUND: 404,
  VOLUME_NOT_FOUND: 404,
  NETWORK_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONTAINER_NOT_RUNNING: 409,
  AMBIGUOUS_NAME: 409,
  ENGINE_UNREACHABLE: 502,
  ENGINE_ERROR: 502,
  ENGINE_TIMEOUT: 504,
  SHUTTING_DOWN: 503,
  CLIENT_TOO_SLOW: 503,
  TOO_MANY_STREAMS: 429,
  STREAM_POOL_FULL: 503,
  LISTEN_FAILED: 500,
  INTERNAL_ERROR: 500,
  READ_NOT_ALLOWED: 403,
};

/** Every error code, for documents that list them (OpenAPI). */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

/** The HTTP status of an error code (docs/http-interface.md, "Error codes"). */
export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** The body of every error, over HTTP and in `error` fields of cluster records. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

/**
 * The one error class of docklens. `status` is the HTTP status of `code`;
 * the message names what failed and never carries a stack trace or key material. `cause` keeps
 * the error it was made from (the engine's, a socket's), for whoever debugs docklens as a
 * library: it may hold paths and addresses, so the server and the CLI never show it, only
 * {@link toJSON}'s `code` and `message`.
 * @example
 * ```ts
 * throw new DocklensError("CONTAINER_NOT_FOUND", "no container web on cluster prod");
 * ```
 */
export class DocklensError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /**
   * The input field an `INVALID_QUERY` is about, when the message starts with its name
   * (`tail: expected…`): the CLI names its own flag instead (`--tail: expected…`).
   */
  readonly param: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { param?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "DocklensError";
    this.code = code;
    this.status = statusOf(code);
    this.param = options.param;
  }

  /** The error body (docs/http-interface.md, "Error body"), without the `{ error }` wrapper. */
  toJSON(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}

/**
 * True for a DocklensError, also one thrown by another copy of this module.
 * @example
 * ```ts
 * try {
 *   await inspectContainer({ cluster: "prod", name: "web" }, { fleet });
 * } catch (error) {
 *   if (isDocklensError(error) && error.code === "CONTAINER_NOT_FOUND") console.log("gone");
 *   else throw error;
 * }
 * ```
 */
export function isDocklensError(error: unknown): error is DocklensError {
  return error instanceof Error && error.name === "DocklensError" && "code" in error;
}

/**
 * An `INVALID_QUERY` about the input field `field` (`tail: expected…`): each face names the field
 * in its own word (query parameter, flag, tool argument).
 */
export function invalidInput(field: string, expected: string): never {
  throw new DocklensError("INVALID_QUERY", `${field}: ${expected}`, { param: field });
}
