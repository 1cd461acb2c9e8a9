import { setMaxListeners } from "node:events";
import {
  createApp as createH3App,
  createError,
  defineEventHandler,
  send,
  setResponseHeader,
  setResponseStatus,
  type App,
  type H3Event,
} from "h3";
import { DocklensError } from "../core/errors.ts";
import { narrowFleet, type Fleet } from "../core/engine/fleet.ts";
import { historyOf } from "../core/history/history.ts";
import { createAuthorizer, type Access } from "./auth.ts";
import { createDashboard } from "./dashboard.ts";
import { sinceLastEvent } from "../core/clusters/events.ts";
import { checkQueryNames, matchRoute, parseQuery } from "./match.ts";
import { createOpenApiDocument } from "./openapi.ts";
import { createMetrics } from "./metrics.ts";
import { SendsItself, Streamed, Text, type ApiRoute } from "./api-route.ts";
import { NODE_ROUTE } from "./node-route.ts";
import { sendJson, sendNdjson, sendText, toErrorBody } from "./respond.ts";
import { API_ROUTES } from "./routes.ts";
import { decode } from "../operations/decode.ts";
import { ALLOW } from "./refusals.ts";
import { formatRequestLog, loggedTarget, type RequestLog } from "./request-log.ts";
import { createExposure } from "./exposure.ts";
import { createStreamCap, MAX_STREAMS, streams } from "./stream-cap.ts";

export { formatRequestLog, type RequestLog } from "./request-log.ts";
export { MAX_HEADER_BYTES, refuseConnect, refuseUnreadable } from "./refusals.ts";

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  fleet: Fleet;
  /**
   * Require `Authorization: Bearer <token>` on every route but `/healthz`
   * (docs/http-interface.md, "Bearer token"). This token sees every cluster; the config's
   * `tokens` (read from the fleet's config) see only theirs.
   */
  token?: string;
  /** What the request log calls `token` (never its value): by default `--token`. */
  tokenName?: string;
  /**
   * Allow this origin (`scheme://host[:port]`) to read responses from a browser (CORS); off when
   * unset. `*` only beside a token.
   */
  cors?: string;
  /**
   * Without a token, the host names answered beside addresses, `localhost` and the config's
   * `allowedHosts` (docs/http-interface.md, "Without a token"); `.example.com` for every name under it.
   */
  allowedHosts?: string[];
  /** Streams one client (a token, or an address without one) may hold open; else the config's `maxStreams`, else 64. */
  maxStreams?: number;
  /**
   * Show sensitive environment values in container detail (docs/http-interface.md, "Secrets");
   * defaults to the config's.
   */
  showSecrets?: boolean;
  /** Where the one log entry per request goes; `false` for none. Default: {@link formatRequestLog} on stderr. */
  log?: ((entry: RequestLog) => void) | false;
  /**
   * When it aborts, open streams (logs follow, stats stream, attach) end; other requests finish:
   * for a graceful shutdown.
   */
  signal?: AbortSignal;
  /**
   * The folder of the built web dashboard served at `/` (docs/http-interface.md, "Dashboard"):
   * by default the package's `dist/web`; `false` for none.
   */
  dashboard?: string | false;
}

const HEALTH: ApiRoute = {
  path: "/healthz",
  summary: "Liveness; asks no engine",
  schema: "Health",
  errors: [],
  public: true,
  run: (_, context) => {
    const history = historyOf(context.fleet)?.status();
    if (!history) return { status: "ok" };
    const { problem, dropped } = history;
    return {
      status: "ok",
      history: { recording: !problem, dropped, ...(problem ? { problem } : {}) },
    };
  },
};

/**
 * Build the h3 app of the HTTP interface that docs/http-interface.md describes: its routes,
 * GET and HEAD only, JSON errors, an optional bearer token. It never listens: wrap it with
 * `toNodeListener(app)` and a server of your own, or use `docklens serve`
 * (docs/http-interface.md, "Running the server").
 */
export function createApp(options: CreateAppOptions): App {
  const log =
    options.log === false
      ? undefined
      : (options.log ??
        ((entry: RequestLog) => process.stderr.write(`${formatRequestLog(entry)}\n`)));
  const metrics = createMetrics();
  const authorize = createAuthorizer(
    options.token,
    options.fleet.config.tokens ?? [],
    process.env,
    options.tokenName,
  );
  const { config } = options.fleet;
  const { cors, refuse } = createExposure({ ...options, config, token: Boolean(authorize) });
  const openStream = createStreamCap(options.maxStreams ?? config.maxStreams ?? MAX_STREAMS);
  // One view of the clusters per scoped token, made once: a token's clusters do not change.
  const views = new Map<string, Fleet>();
  const fleetOf = (access: Access | undefined) => {
    if (!access?.sees) return options.fleet;
    let view = views.get(access.token);
    if (!view) views.set(access.token, (view = narrowFleet(options.fleet, access.sees)));
    return view;
  };
  const app = createH3App({
    onRequest(event) {
      setResponseHeader(event, "X-Content-Type-Options", "nosniff");
      setResponseHeader(event, "Cache-Control", "no-store");
      if (cors) {
        setResponseHeader(event, "Access-Control-Allow-Origin", cors);
        setResponseHeader(event, "Vary", "Origin");
      }
      const start = performance.now();
      event.node.res.once("close", () => {
        // By route template, never the raw path: a label value per route, however many names.
        metrics.observe(
          (event.context.route as string | undefined) ?? "unmatched",
          event.node.res.statusCode,
          (performance.now() - start) / 1000,
        );
        if (log) {
          const status = event.node.res.statusCode;
          const entry: RequestLog = {
            method: event.method,
            path: shorten(
              loggedTarget(
                rawUrl(event),
                status < 400 ? (event.context.declared as Set<string>) : undefined,
              ),
            ),
            status,
            ms: Math.round(performance.now() - start),
            ...(event.context.token ? { token: event.context.token as string } : {}),
            ...(event.context.internalError
              ? { error: event.context.internalError as string }
              : {}),
          };
          log(entry);
        }
      });
    },
    onError(error, event) {
      const body = toErrorBody(error.cause ?? error);
      // Kept for the request's log entry: the client only learns that docklens failed.
      if (body.error.code === "INTERNAL_ERROR")
        event.context.internalError = (error.cause as Error | undefined)?.message ?? error.message;
      return sendJson(event, { error: body.error }, body.status);
    },
  });

  const openapi: ApiRoute = {
    path: "/openapi.json",
    summary: "This interface as OpenAPI 3.1",
    schema: "OpenApi",
    errors: [],
    run: () => document,
  };
  const metricsRoute: ApiRoute = {
    path: "/metrics",
    summary: "Prometheus metrics: each engine's state and counts, serve's requests, Node's own",
    schema: "Metrics",
    text: metrics.contentType,
    errors: [],
    run: async (_, context) => new Text(await metrics.scrape(context.fleet), metrics.contentType),
  };
  const routes = [HEALTH, openapi, metricsRoute, ...API_ROUTES, NODE_ROUTE];
  const publicPaths = new Set(routes.filter((route) => route.public).map((route) => route.path));
  const document = createOpenApiDocument(routes, { token: Boolean(authorize) });
  const dashboard = options.dashboard === false ? undefined : createDashboard(options.dashboard);
  app.use(
    defineEventHandler(async (event) => {
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
      const fleet = fleetOf(access);
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
      // The one place a request becomes the operation's input; the handler gets it typed.
      const input = route.input ? decode(route.input, { ...query, ...lists }) : {};
      // Counted before any engine stream opens; the client's token, else its address.
      if (streams(route, input, params))
        openStream(access?.token ?? `@${event.node.req.socket.remoteAddress}`, event.node.res);
      const signal = requestSignal(event);
      const showSecrets = options.showSecrets ?? options.fleet.config.showSecrets;
      const result = await keepCause(() =>
        route.run(params, { fleet, signal, showSecrets, input }),
      );
      if (result instanceof Text) return sendText(event, result.body, result.contentType);
      if (result instanceof SendsItself) return result.send(event, signal);
      return result instanceof Streamed
        ? sendNdjson(event, result.items, signal, options.signal, result.compressed)
        : sendJson(event, result, 200);
    }),
  );
  return app;
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

/** The request target as the client sent it; h3 rewrites `event.path` decoded. */
function rawUrl(event: H3Event): string {
  return event.node.req.originalUrl ?? event.node.req.url ?? "/";
}

function shorten(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
