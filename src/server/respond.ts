// Writing a route's answer: a JSON body, a stream of NDJSON or Server-Sent Events lines, or an
// error body; never a stack trace.
import { once } from "node:events";
import { send, setResponseStatus, type H3Event } from "h3";
import { DocklensError, isDocklensError, type ErrorBody } from "../core/errors.ts";
import { toJsonText } from "../core/json.ts";

/**
 * Bodies the core shares between callers of one read are serialised once: a burst of identical
 * list requests costs one JSON.stringify, not one each. The core never changes a body it returned.
 */
const serialised = new WeakMap<object, string>();

/** Send a JSON body, compactly: large container lists are the hot path. */
export function sendJson(event: H3Event, body: unknown, status: number): Promise<void> {
  setResponseStatus(event, status);
  let text = typeof body === "object" && body !== null ? serialised.get(body) : undefined;
  if (text === undefined) {
    text = toJsonText(body);
    if (typeof body === "object" && body !== null) serialised.set(body, text);
  }
  return send(event, text, "application/json");
}

/**
 * Write each item as a JSON line as it comes, with backpressure, until the items end or the
 * client leaves (then `signal` has stopped the engine stream, and the items end too), or the
 * server shuts down (`shutdown`: a last `SHUTTING_DOWN` error line, so that a client can tell
 * it from the container stopping, then the response ends, which stops the engine stream the
 * same way). An error after the headers went out becomes a last `{ "error": … }` line too. HEAD
 * sends the headers only.
 */
export async function sendNdjson(
  event: H3Event,
  items: AsyncGenerator<unknown>,
  signal: AbortSignal,
  shutdown: AbortSignal | undefined,
): Promise<void> {
  const { res } = event.node;
  // A browser's EventSource asks for Server-Sent Events: the same objects, one `data:` each.
  const sse = /\btext\/event-stream\b/.test(event.node.req.headers.accept ?? "");
  res.statusCode = 200;
  res.setHeader("Content-Type", sse ? "text/event-stream" : "application/x-ndjson");
  res.flushHeaders();
  const end = () => res.end();
  // Writing after the end would raise an 'error' on the response: check before every write.
  const write = (value: unknown) =>
    !res.writableEnded &&
    res.write(sse ? `data: ${toJsonText(value)}\n\n` : `${toJsonText(value)}\n`);
  const closing = () => {
    write({
      error: new DocklensError(
        "SHUTTING_DOWN",
        "docklens serve is shutting down; the stream ends here",
      ).toJSON(),
    });
    end();
  };
  if (event.method === "HEAD") end();
  else if (shutdown?.aborted) closing();
  shutdown?.addEventListener("abort", closing, { once: true, signal });
  try {
    for await (const item of items) {
      if (res.writableEnded) break;
      if (!write(item)) await once(res, "drain", { signal });
    }
  } catch (error) {
    if (!signal.aborted) write({ error: toErrorBody(error).error });
  } finally {
    await items.return(undefined);
    end();
  }
}

export function toErrorBody(error: unknown): { status: number; error: ErrorBody } {
  if (isDocklensError(error)) return { status: error.status, error: error.toJSON() };
  const status = (error as { statusCode?: number })?.statusCode;
  // h3's own errors: a malformed request it refused before any route ran.
  if (status && status >= 400 && status < 500)
    return {
      status: 400,
      error: { code: "INVALID_QUERY", message: "the request could not be read" },
    };
  return {
    status: 500,
    error: new DocklensError(
      "INTERNAL_ERROR",
      "docklens failed on this request; the server log says why",
    ).toJSON(),
  };
}
