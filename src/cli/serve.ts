import { setMaxListeners } from "node:events";
import { isIP } from "node:net";
import type { Fleet } from "../core/engine/fleet.ts";
import { openFleet, type OpenedFleet } from "../core/node/open-fleet.ts";
import type { RequestLog } from "../server/app.ts";
import {
  isLoopback,
  listenAt,
  listenOn,
  usageCheck,
  type ListenAt,
  type ListenFlags,
} from "./serve-listen.ts";
import { tokenSource } from "./serve-token.ts";
import { stderrLog } from "./stderr-log.ts";
import { corsProblem } from "../server/exposure.ts";
import type { CommandOptions } from "../operations/command.ts";

/** Options of `docklens serve` (docs/http-interface.md, "Running the server"). */
export interface ServeOptions extends CommandOptions, ListenFlags {
  quiet?: boolean;
  showSecrets?: boolean;
  /** Where history is kept, when the config's `history.path` does not say. */
  dataDir?: string;
}

/** Time in-flight requests get to finish after SIGINT or SIGTERM. */
const DRAIN_MS = 10_000;

/**
 * `docklens serve`: the HTTP interface on `--host` and `--port` with listhen, until SIGINT or
 * SIGTERM; then it stops accepting, ends open streams, lets in-flight requests finish (10 s at
 * most) and closes engine sockets.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const at = await listenAt(options);
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // One listener per request in flight.
  // Live: container lists from each engine's mirror, events from one subscription per engine
  // (core/hub/); the clusters of the config's nodes kept up to date until serve stops.
  const opened = await openFleet({
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    live: true,
    watch: shutdown.signal,
  });
  try {
    await serveFleet(opened, shutdown, options, at);
  } catch (error) {
    // Nodes are joined before serve listens: a failure after stops their upkeep, or it would hang.
    shutdown.abort();
    await opened.close();
    throw error;
  }
}

/** Serve `opened`'s fleet until SIGINT or SIGTERM, then exit (see {@link serve}). */
async function serveFleet(
  opened: OpenedFleet,
  shutdown: AbortController,
  options: ServeOptions,
  at: ListenAt,
): Promise<never> {
  const { fleet } = opened;
  await checkBeforeListening(fleet, options, at);
  const listener = await listenOn(await serveApp(fleet, options, at, shutdown.signal), at, options);
  // Recording starts once serve listens: a serve that cannot listen leaves nothing running.
  const history = await (await import("./record.ts")).startRecording(fleet, options);
  const { address } = listener.address;
  const host = address.includes(":") ? `[${address}]` : address;
  const url = `${at.https ? "https" : "http"}://${host}:${listener.address.port}`;
  const tokens = Boolean(at.token) || Boolean(fleet.config.tokens?.length);
  process.stdout.write(servingLine(opened, url, tokens, options.json));
  const alerts = await startAlertRules(fleet, url, options);
  warnIfExposed(at, tokens, options);
  const signal = await untilSignal(options);
  const timer = setTimeout(() => process.exit(0), DRAIN_MS);
  timer.unref();
  // Streams never finish by themselves: end them, so that only finite requests are waited for.
  shutdown.abort(new Error(signal));
  await listener.close();
  alerts?.close();
  await history?.close();
  await opened.close();
  clearTimeout(timer);
  process.exit(0);
}

/** What stops serve before it listens, as a bad config does: a rule, a receiver, history, --cors. */
async function checkBeforeListening(fleet: Fleet, options: ServeOptions, at: ListenAt) {
  for (const warning of fleet.config.warnings)
    process.stderr.write(
      options.json ? `${JSON.stringify({ warning })}\n` : `docklens: warning: ${warning}\n`,
    );
  if (fleet.config.alerts?.rules.length)
    (await import("../core/alerts/alerts.ts")).readAlertRules({ fleet });
  await (await import("./record.ts")).checkRecording(fleet);
  if (options.cors !== undefined)
    usageCheck(
      "--cors",
      corsProblem(options.cors, Boolean(at.token) || Boolean(fleet.config.tokens?.length)),
    );
}

/** The HTTP interface of `fleet` as a Node listener, its requests logged on stderr unless quiet. */
async function serveApp(fleet: Fleet, options: ServeOptions, at: ListenAt, signal: AbortSignal) {
  const [{ createApp, formatRequestLog }, { toNodeListener }] = await Promise.all([
    import("../server/app.ts"),
    import("h3"),
  ]);
  const log = options.quiet
    ? false
    : (entry: RequestLog) => {
        const time = new Date().toISOString();
        process.stderr.write(
          options.json
            ? `${JSON.stringify({ time, ...entry })}\n`
            : `${time} ${formatRequestLog(entry)}\n`,
        );
      };
  const app = createApp({
    fleet,
    log,
    signal,
    ...(at.token ? { token: at.token, tokenName: tokenSource(options) } : {}),
    ...(options.cors ? { cors: options.cors } : {}),
    // The name serve was told to listen on is one it is reached by.
    allowedHosts: [...(isIP(options.host) ? [] : [options.host]), ...(options.allowedHost ?? [])],
    ...(options.showSecrets ? { showSecrets: true } : {}),
  });
  return toNodeListener(app);
}

/** Off loopback, a warning when anyone who reaches the port can read, or tokens go in clear. */
function warnIfExposed(at: ListenAt, tokens: boolean, options: ServeOptions): void {
  if (isLoopback(at.hostname)) return;
  const warning = !tokens
    ? "no token is set: anyone who reaches this port can read every engine"
    : !at.https
      ? "no --tls-cert is set: tokens cross the network in clear"
      : undefined;
  if (warning)
    process.stderr.write(
      options.json
        ? `${JSON.stringify({ warning: `${options.host} is not loopback and ${warning}` })}\n`
        : `docklens: warning: ${options.host} is not loopback and ${warning}\n`,
    );
}

/** The first SIGINT or SIGTERM, said unless quiet; a second one while draining stops at once. */
async function untilSignal(options: ServeOptions): Promise<string> {
  const signal = await new Promise<string>((resolve) => {
    for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => resolve(name));
  });
  for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => process.exit(1));
  if (!options.quiet) {
    const message = "finishing in-flight requests";
    process.stderr.write(
      options.json
        ? `${JSON.stringify({ time: new Date().toISOString(), signal, message })}\n`
        : `docklens: ${signal}: ${message}\n`,
    );
  }
  return signal;
}

/**
 * What serve says it serves: its clusters, those of nodes among them, and the NATS servers where
 * more nodes may join while it runs (`serving 3 clusters on URL, 2 of them from nodes, and the
 * nodes joining over NATS at nats://…`).
 */
function servingLine(opened: OpenedFleet, url: string, token: boolean, json?: boolean): string {
  const { clusters } = opened.fleet.config;
  const nodes = clusters.filter((cluster) => cluster.node).length;
  const { nats } = opened;
  const fromNodes = nodes || nats ? { nodes, ...(nats ? { nats } : {}) } : {};
  if (json) return `${JSON.stringify({ url, clusters: clusters.length, token, ...fromNodes })}\n`;
  const count = `${clusters.length} cluster${clusters.length === 1 ? "" : "s"}`;
  const of = nodes ? `, ${nodes} of them from nodes` : "";
  const joining = nats ? `, and the nodes joining over NATS at ${nats}` : "";
  return `docklens: serving ${count} on ${url}${of}${joining}\n`;
}

/** The config's alert rules, on serve's fleet; their log lines on stderr, as the requests'. */
async function startAlertRules(fleet: Fleet, url: string, options: ServeOptions) {
  if (!fleet.config.alerts?.rules.length) return undefined;
  const { startAlerts } = await import("../core/alerts/alerts.ts");
  return startAlerts({
    fleet,
    url,
    log: stderrLog("alerts", options.json, "alerts: "),
  });
}
