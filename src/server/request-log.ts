// The request log of the server: one entry per request, which never holds a secret.
import { setResponseHeader, type H3Event } from "h3";
import type { Metrics } from "./metrics.ts";

/** One request, as the log sees it once the response is over. */
export interface RequestLog {
  method: string;
  /**
   * The request target, cut to 200 characters: the path, and the query's parameter names, with
   * their values only for a request that was served, of parameters its route declares, whose
   * names do not say token, key, secret or password (docs/http-interface.md, "Running the server").
   */
  path: string;
  status: number;
  ms: number;
  /** Why docklens failed, for an `INTERNAL_ERROR` (the client is not told). */
  error?: string;
  /** The name of the token the request came with (never its value). */
  token?: string;
}

/** The text form of a log entry: `GET /list/cluster 200 12ms token=ops`. */
export function formatRequestLog(entry: RequestLog): string {
  const token = entry.token ? ` token=${entry.token}` : "";
  const error = entry.error ? ` (error: ${entry.error})` : "";
  return `${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms${token}${error}`;
}

/** Parameter names whose values the log never writes, however the request ended. */
const SECRET_NAME = /token|key|secret|passw/i;

/**
 * The request target as the log writes it: the path, and each query parameter by name; a value
 * only of a parameter in `declared` (those the route that served the request declares; none for
 * a refused request) whose name says nothing secret. A refused request, or a parameter the route
 * ignores, may carry anything (a token pasted in the wrong place, `?t=`), and tells an operator
 * little.
 */
export function loggedTarget(target: string, declared: ReadonlySet<string> | undefined): string {
  const start = target.indexOf("?");
  if (start === -1) return target;
  const params = target
    .slice(start + 1)
    .split("&")
    .map((param) => {
      const equals = param.indexOf("=");
      const name = equals === -1 ? param : param.slice(0, equals);
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that does not decode might say anything: its value is not written.
      }
      return decoded !== undefined && declared?.has(decoded) && !SECRET_NAME.test(decoded)
        ? param
        : name;
    });
  return `${target.slice(0, start)}?${params.join("&")}`;
}

/** The request target as the client sent it; h3 rewrites `event.path` decoded. */
export function rawUrl(event: H3Event): string {
  return event.node.req.originalUrl ?? event.node.req.url ?? "/";
}

/** A target cut to 200 characters, for the log and for messages that quote it. */
export function shorten(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * What serve does as each request begins: headers every answer carries (no sniffing, no caching,
 * CORS when allowed), then, once the response is over, its metric (by route template, never the
 * raw path) and its log entry.
 */
export function observeRequests(options: {
  cors: string | undefined;
  metrics: Metrics;
  log: ((entry: RequestLog) => void) | undefined;
}): (event: H3Event) => void {
  const { cors, metrics, log } = options;
  return (event) => {
    setResponseHeader(event, "X-Content-Type-Options", "nosniff");
    setResponseHeader(event, "Cache-Control", "no-store");
    if (cors) {
      setResponseHeader(event, "Access-Control-Allow-Origin", cors);
      setResponseHeader(event, "Vary", "Origin");
    }
    const start = performance.now();
    event.node.res.once("close", () => {
      const status = event.node.res.statusCode;
      const route = (event.context.route as string | undefined) ?? "unmatched";
      metrics.observe(route, status, (performance.now() - start) / 1000);
      if (!log) return;
      const declared = status < 400 ? (event.context.declared as Set<string>) : undefined;
      log({
        method: event.method,
        path: shorten(loggedTarget(rawUrl(event), declared)),
        status,
        ms: Math.round(performance.now() - start),
        ...(event.context.token ? { token: event.context.token as string } : {}),
        ...(event.context.internalError ? { error: event.context.internalError as string } : {}),
      });
    });
  };
}
