import {
  createApp as createH3App,
  defineEventHandler,
  type App,
  type H3Error,
  type H3Event,
} from "h3";
import { narrowFleet, type Fleet } from "../core/engine/fleet.ts";
import { historyOf } from "../core/history/history.ts";
import { Text, type ApiRoute } from "./api-route.ts";
import { createAuthorizer, type Access } from "./auth.ts";
import { createDashboard } from "./dashboard.ts";
import { createExposure } from "./exposure.ts";
import { handleRequests } from "./handle-request.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { NODE_ROUTE } from "./node-route.ts";
import { createOpenApiDocument } from "./openapi.ts";
import { formatRequestLog, observeRequests, type RequestLog } from "./request-log.ts";
import { sendJson, toErrorBody } from "./respond.ts";
import { API_ROUTES } from "./routes.ts";
import { createStreamCap, MAX_STREAMS } from "./stream-cap.ts";

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
  const { config } = options.fleet;
  const metrics = createMetrics();
  const authorize = createAuthorizer(
    options.token,
    config.tokens ?? [],
    process.env,
    options.tokenName,
  );
  const { cors, refuse } = createExposure({ ...options, config, token: Boolean(authorize) });
  const app = createH3App({
    onRequest: observeRequests({ cors, metrics, log: requestLog(options.log) }),
    onError: answerError,
  });
  const handle = handleRequests({
    routes: servedRoutes(metrics, Boolean(authorize)),
    authorize,
    refuse,
    cors,
    dashboard: options.dashboard === false ? undefined : createDashboard(options.dashboard),
    fleetOf: tokenFleets(options.fleet),
    openStream: createStreamCap(options.maxStreams ?? config.maxStreams ?? MAX_STREAMS),
    showSecrets: options.showSecrets ?? config.showSecrets,
    signal: options.signal,
  });
  app.use(defineEventHandler(handle));
  return app;
}

/** Where request log entries go: the option's function, none for `false`, else stderr. */
function requestLog(log: CreateAppOptions["log"]): ((entry: RequestLog) => void) | undefined {
  if (log === false) return undefined;
  return log ?? ((entry) => process.stderr.write(`${formatRequestLog(entry)}\n`));
}

/** An error's JSON body and status; an internal one's message kept for the log alone. */
function answerError(error: H3Error, event: H3Event): Promise<void> {
  const body = toErrorBody(error.cause ?? error);
  if (body.error.code === "INTERNAL_ERROR")
    event.context.internalError = (error.cause as Error | undefined)?.message ?? error.message;
  return sendJson(event, { error: body.error }, body.status);
}

/** Every route serve answers: its own (health, the document, metrics), the operations', the node's. */
function servedRoutes(metrics: Metrics, token: boolean): ApiRoute[] {
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
  const document = createOpenApiDocument(routes, { token });
  return routes;
}

/** The fleet each token sees: a scoped token's view made once, as its clusters do not change. */
function tokenFleets(fleet: Fleet): (access: Access | undefined) => Fleet {
  const views = new Map<string, Fleet>();
  return (access) => {
    if (!access?.sees) return fleet;
    let view = views.get(access.token);
    if (!view) views.set(access.token, (view = narrowFleet(fleet, access.sees)));
    return view;
  };
}
