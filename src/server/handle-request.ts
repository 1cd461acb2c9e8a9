// What serve does with one request once it has begun: refusals, the page's files, the token, the
// route, its input, the stream cap, then the operation's handler and its answer.
import { setMaxListeners } from "node:events";
import { createError, send, setResponseHeader, setResponseStatus, type H3Event } from "h3";
import { sinceLastEvent } from "../core/clusters/events.ts";
import type { Fleet } from "../core/engine/fleet.ts";
import { DocklensError } from "../core/errors.ts";
import { decode } from "../operations/decode.ts";
import { SendsItself, Streamed, Text, type ApiRoute } from "./api-route.ts";
import type { Access, Authorizer } from "./auth.ts";
import type { DashboardHandler } from "./dashboard.ts";
import type { createExposure } from "./exposure.ts";
import { checkQueryNames, matchRoute, parseQuery } from "./match.ts";
import { ALLOW } from "./refusals.ts";
import { rawUrl, shorten } from "./request-log.ts";
import { sendJson, sendNdjson, sendText } from "./respond.ts";
import { streams, type createStreamCap } from "./stream-cap.ts";

type Exposure = ReturnType<typeof createExposure>;

/** What {@link handleRequests} needs of the app createApp assembles. */
export interface RequestHandling {
  routes: ApiRoute[];
  /** The token's check, when serve has one. */
  authorize: Authorizer;
  /** A refusal of the request's headers (a host or origin serve does not answer), or none. */
  refuse: Exposure["refuse"];
  cors: string | undefined;
  /** The page's files, when serve has the page. */
  dashboard: DashboardHandler | undefined;
  /** The fleet a token sees. */
  fleetOf: (access: Access | undefined) => Fleet;
  /** Counts a stream against its client's cap, or throws. */
  openStream: ReturnType<typeof createStreamCap>;
  showSecrets: boolean;
  /** Ends open streams on shutdown. */
  signal: AbortSignal | undefined;
}

/** The handler of every request createApp serves. */
export function handleRequests(handling: RequestHandling): (event: H3Event) => Promise<unknown> {
  const { routes, authorize, refuse, cors, dashboard, fleetOf } = handling;
  const publicPaths = new Set(routes.filter((route) => route.public).map((route) => route.path));
  return async (event) => {
    const target = rawUrl(event);
    const pathname = target.split("?")[0]!;
    const refused = refuse?.(event.node.req.headers);
    if (refused) throw refused;
    // Browsers send CORS preflights without the token; they get the same answer on any path.
    if (event.method === "OPTIONS" && cors) return preflight(event);
    // The dashboard's own files hold no engine data: they need no token (the page asks for one).
    const page = dashboard?.(event, pathname);
    if (page) return page;
    // The token comes before routing: without it a client learns nothing, not even which
    // paths exist or which names are malformed.
    const guarded = authorize !== undefined && !publicPaths.has(pathname);
    const access = guarded ? authorize(event.node.req.headers.authorization) : undefined;
    if (guarded && !access) {
      setResponseHeader(event, "WWW-Authenticate", 'Bearer realm="docklens"');
      throw new DocklensError("UNAUTHORIZED", "a valid Authorization: Bearer token is required");
    }
    // The log names the token (never its value); a scoped token sees only its clusters, on every route.
    if (access) event.context.token = access.token;
    const match = matchRoute(routes, target);
    if (!match)
      throw new DocklensError(
        "ROUTE_NOT_FOUND",
        `no route ${event.method} ${shorten(pathname)}; GET /detail and /openapi.json list them`,
      );
    const { route, params } = match;
    event.context.route = route.path;
    // The log writes values of these alone: a token pasted in another parameter stays out.
    event.context.declared = new Set(Object.keys(route.query ?? {}));
    if (event.method !== "GET" && event.method !== "HEAD") {
      setResponseHeader(event, "Allow", ALLOW);
      throw new DocklensError(
        "METHOD_NOT_ALLOWED",
        `method ${event.method} is not allowed on ${route.path}: docklens is read-only (GET and HEAD only)`,
      );
    }
    const input = routeInput(event, route, target);
    // Counted before any engine stream opens; the client's token, else its address.
    if (streams(route, input, params))
      handling.openStream(
        access?.token ?? `@${event.node.req.socket.remoteAddress}`,
        event.node.res,
      );
    const signal = requestSignal(event);
    const context = { fleet: fleetOf(access), signal, showSecrets: handling.showSecrets, input };
    const result = await keepCause(() => route.run(params, context));
    if (result instanceof Text) return sendText(event, result.body, result.contentType);
    if (result instanceof SendsItself) return result.send(event, signal);
    return result instanceof Streamed
      ? sendNdjson(event, result.items, signal, handling.signal, result.compressed)
      : sendJson(event, result, 200);
  };
}

/** The one place a request becomes the operation's input; the handler gets it typed. */
function routeInput(event: H3Event, route: ApiRoute, target: string): Record<string, unknown> {
  const known = Object.entries(route.query ?? {});
  const { query, lists } = parseQuery(
    target,
    known.filter(([, param]) => param.repeatable).map(([name]) => name),
  );
  if (route.query && !route.otherQueryIgnored)
    checkQueryNames({ ...query, ...lists }, Object.keys(route.query));
  // An EventSource that reconnects sends back the id of the last event it had: it resumes
  // after that event, whatever `since` its URL (the same as the first time) says.
  const lastEventId = event.node.req.headers["last-event-id"];
  if (route.headers?.["Last-Event-ID"] && typeof lastEventId === "string")
    query.since = sinceLastEvent(lastEventId);
  return route.input ? decode(route.input, { ...query, ...lists }) : {};
}

/**
 * `run`'s result, or its error wrapped so that h3 hands it to `onError` whole: h3 makes any other
 * error with a `cause` into an H3Error of that cause alone, which would turn a DocklensError that
 * keeps the engine's error into an `INTERNAL_ERROR`.
 */
async function keepCause<T>(run: () => T): Promise<Awaited<T>> {
  try {
    return await run();
  } catch (error) {
    throw createError({ cause: error });
  }
}

/**
 * Aborted when the response is over: a client that left before its answer was complete cancels
 * the engine work nobody else waits for, and a stream opened for a HEAD request is closed.
 */
function requestSignal(event: H3Event): AbortSignal {
  const controller = new AbortController();
  // One listener per engine call of the request: /list/cluster over 40 clusters adds 80.
  setMaxListeners(0, controller.signal);
  event.node.res.once("close", () => controller.abort(new Error("the response is over")));
  return controller.signal;
}

function preflight(event: H3Event): Promise<void> {
  setResponseHeader(event, "Access-Control-Allow-Methods", ALLOW);
  setResponseHeader(event, "Access-Control-Allow-Headers", "Authorization");
  setResponseHeader(event, "Access-Control-Max-Age", 600);
  setResponseStatus(event, 204);
  return send(event, "");
}
