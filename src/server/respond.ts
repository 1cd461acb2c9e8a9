// Writing a route's answer: a JSON body, a stream of NDJSON or Server-Sent Events lines, or an
// error body; never a stack trace.
import { once } from "node:events";
import { send, setResponseStatus, type H3Event } from "h3";
import { DocklensError, isDocklensError, type ErrorBody } from "../core/errors.ts";
import { toJsonText } from "../core/json.ts";
import type { Writable } from "node:stream";
import {
  compress,
  compressingStream,
  MIN_COMPRESSED_BYTES,
  negotiate,
  type Coding,
} from "./compress.ts";

/** A body's bytes, and each content coding of them, made when a request first asks for it. */
export interface Encoded {
  bytes: Buffer;
  codings: Map<Coding, Promise<Buffer>>;
}

/**
 * Bodies the core shares between callers of one read are serialised once, and compressed once
 * per coding: a burst of identical list requests costs one JSON.stringify and one gzip, not one
 * each, and requests that come while the gzip runs wait for that one. The core never changes a
 * body it returned.
 */
const encoded = new WeakMap<object, Encoded>();

/** Send a JSON body, compactly (large container lists are the hot path), compressed as the client asks. */
export function sendJson(event: H3Event, body: unknown, status: number): Promise<void> {
  setResponseStatus(event, status);
  const shared = typeof body === "object" && body !== null;
  let entry = shared ? encoded.get(body) : undefined;
  if (!entry) {
    entry = { bytes: Buffer.from(toJsonText(body)), codings: new Map() };
    if (shared) encoded.set(body, entry);
  }
  return sendEncoded(event, entry, "application/json");
}

/** Send a text body (the Prometheus exposition), compressed as the client asks. */
export function sendText(event: H3Event, text: string, contentType: string): Promise<void> {
  return sendEncoded(event, encodedBody(Buffer.from(text)), contentType);
}

/** A body to send as {@link sendEncoded} does; kept, each of its codings is made once. */
export function encodedBody(bytes: Buffer): Encoded {
  return { bytes, codings: new Map() };
}

/**
 * Send `entry` in the coding the request's Accept-Encoding prefers (docs/http-interface.md,
 * "Compression"), with its exact Content-Length. HEAD gets the headers GET would, and no body.
 */
export async function sendEncoded(
  event: H3Event,
  entry: Encoded,
  contentType: string,
): Promise<void> {
  const { res, req } = event.node;
  const { coding, identity } = negotiate(req.headers["accept-encoding"]);
  // Caches must not hand a gzip body to a client that did not ask for one, whatever this one got.
  // Once: an error answered after a failed send comes through here again.
  const vary = String(res.getHeader("vary") ?? "");
  if (!/\baccept-encoding\b/i.test(vary))
    res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  let bytes = entry.bytes;
  // A small body goes as it is, unless the client refused that (identity;q=0).
  if (coding && (bytes.length >= MIN_COMPRESSED_BYTES || !identity)) {
    let coded = entry.codings.get(coding);
    if (!coded) {
      entry.codings.set(coding, (coded = compress(bytes, coding)));
      // A failed compression is not kept: the next request tries again.
      coded.catch(() => entry.codings.delete(coding));
    }
    bytes = await coded;
    res.setHeader("Content-Encoding", coding);
  }
  res.setHeader("Content-Length", bytes.length);
  return send(event, event.method === "HEAD" ? undefined : bytes, contentType);
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
  compressed = false,
): Promise<void> {
  const { res } = event.node;
  // A browser's EventSource asks for Server-Sent Events: the same objects, one `data:` each.
  const sse = /\btext\/event-stream\b/.test(event.node.req.headers.accept ?? "");
  res.statusCode = 200;
  res.setHeader("Content-Type", sse ? "text/event-stream" : "application/x-ndjson");
  const out = compressed ? compressedBody(event) : undefined;
  res.flushHeaders();
  const body: Writable = out?.stream ?? res;
  const end = () => body.end();
  // Writing after the end would raise an 'error' on the response: check before every write.
  const write = (value: unknown) => {
    if (res.writableEnded || body.writableEnded || body.destroyed) return true;
    const more = body.write(sse ? sseFrame(value) : `${toJsonText(value)}\n`);
    out?.flush();
    return more;
  };
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
      if (!write(item)) await once(body, "drain", { signal });
    }
  } catch (error) {
    if (!signal.aborted) write({ error: toErrorBody(error).error });
  } finally {
    await items.return(undefined);
    end();
  }
}

/**
 * The stream a compressed streamed body is written to, piped to the response, in the coding the
 * request prefers (none: undefined); its headers set.
 */
function compressedBody(event: H3Event) {
  const { res, req } = event.node;
  res.setHeader("Vary", "Accept-Encoding");
  const { coding } = negotiate(req.headers["accept-encoding"]);
  if (!coding) return undefined;
  res.setHeader("Content-Encoding", coding);
  const out = compressingStream(coding);
  out.stream.pipe(res);
  // A client that left ends the response; the compressor goes with it.
  res.on("close", () => out.stream.destroy());
  out.stream.on("error", () => res.destroy());
  return out;
}

/**
 * One Server-Sent Event: an item with a `timeNano` (an engine event) has it as its `id:`, which
 * an EventSource sends back as `Last-Event-ID` when it reconnects; other lines have none.
 */
function sseFrame(value: unknown): string {
  const timeNano = (value as { timeNano?: unknown } | null)?.timeNano;
  const id =
    typeof timeNano === "bigint" || typeof timeNano === "number" ? `id: ${timeNano}\n` : "";
  return `${id}data: ${toJsonText(value)}\n\n`;
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
