// What a server that hosts the app answers itself, on the socket, for requests that never reach
// the app: those Node's HTTP layer cannot read, and CONNECT.
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import { DocklensError } from "../core/errors.ts";

/** The methods of every route. */
export const ALLOW = "GET, HEAD";

/**
 * The most bytes of request line and headers `docklens serve` reads (Node's default is 16 KiB):
 * room for the largest request the OpenAPI document allows (its `maxItems` and `maxLength`), and
 * for the usual headers. A server of your own that hosts the app wants the same `maxHeaderSize`.
 */
export const MAX_HEADER_BYTES = 128 * 1024;

/**
 * Answer a request Node's HTTP layer could not read (request line and headers over
 * `maxHeaderSize`, a malformed request line or header, a request not complete in time) as any
 * other error: `400 INVALID_QUERY` as JSON with the usual headers, where Node alone sends a
 * bodiless `431` or `400`. For the server's 'clientError' event (`docklens serve` listens to it).
 */
export function refuseUnreadable(
  options: { cors?: string } = {},
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    // A peer that left, or a socket already answered, is owed nothing; nor is one in the middle
    // of a response (a stream, then a malformed request on the same connection), as Node does.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const reason =
      error.code === "HPE_HEADER_OVERFLOW"
        ? "the request line and headers are larger than this server reads"
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "the request did not arrive within the server's time limit"
          : "the request could not be read as HTTP/1.1";
    answerOnSocket(socket, "400 Bad Request", new DocklensError("INVALID_QUERY", reason), [
      "X-Content-Type-Options: nosniff",
      "Cache-Control: no-store",
      ...(options.cors ? [`Access-Control-Allow-Origin: ${options.cors}`, "Vary: Origin"] : []),
    ]);
  };
}

/**
 * Answer a CONNECT request, which Node never passes to the app: without this, Node closes the
 * connection without a word. For servers that host the app (`docklens serve` does).
 */
export function refuseConnect(_request: unknown, socket: Duplex): void {
  // Node took its own error handler off this socket: a peer that resets it must not crash the server.
  socket.on("error", () => socket.destroy());
  (socket as Socket).setTimeout?.(5000, () => socket.destroy());
  const error = new DocklensError(
    "METHOD_NOT_ALLOWED",
    "method CONNECT is not allowed: docklens is read-only (GET and HEAD only)",
  );
  answerOnSocket(socket, "405 Method Not Allowed", error, [`Allow: ${ALLOW}`]);
}

/** An error written straight on the socket as the app writes it (a JSON body), then closed. */
function answerOnSocket(
  socket: Duplex,
  status: string,
  error: DocklensError,
  headers: string[],
): void {
  const body = JSON.stringify({ error: error.toJSON() });
  const head = [
    `HTTP/1.1 ${status}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers,
    "Connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}
