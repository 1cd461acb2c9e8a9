import { setMaxListeners } from "node:events";
import { lookup } from "node:dns/promises";
import { createServer, isIP } from "node:net";
import { DocklensError } from "../core/errors.ts";
import type { Fleet } from "../core/engine/fleet.ts";
import { openFleet, type OpenedFleet } from "../core/node/open-fleet.ts";
import type { RequestLog } from "../server/app.ts";
import { serveToken, tokenSource, type TokenFlags } from "./serve-token.ts";
import { stderrLog } from "./stderr-log.ts";
import { allowedHostProblem, corsProblem, HOST_NAME } from "../server/exposure.ts";
import type { CommandOptions } from "../operations/command.ts";

/** Options of `docklens serve` (docs/http-interface.md, "Running the server"). */
export interface ServeOptions extends CommandOptions, TokenFlags {
  host: string;
  port: string;
  cors?: string;
  /** Host names answered without a token, beside loopback, addresses and `host`. */
  allowedHost?: string[];
  quiet?: boolean;
  showSecrets?: boolean;
  /** PEM certificate and key: serve HTTPS. */
  tlsCert?: string;
  tlsKey?: string;
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
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535)
    throw new DocklensError(
      "INVALID_CONFIG",
      `--port: expected a port from 0 to 65535, got ${JSON.stringify(options.port)}`,
    );
  const hostname = await listenAddress(options.host);
  for (const name of options.allowedHost ?? [])
    usageCheck("--allowed-host", allowedHostProblem(name));
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
    throw new DocklensError(
      "INVALID_CONFIG",
      "--tls-cert and --tls-key go together: give both, or neither",
    );
  // An unset shell variable must not quietly mean plain HTTP.
  if (options.tlsCert === "" || options.tlsKey === "")
    throw new DocklensError(
      "INVALID_CONFIG",
      "--tls-cert and --tls-key want the paths of PEM files, not empty values",
    );
  const https =
    options.tlsCert && options.tlsKey ? { cert: options.tlsCert, key: options.tlsKey } : undefined;
  if (https) {
    const problem = (await import("../core/config/key-files.ts")).checkKeyFiles({ tls: https });
    // The problem speaks of the config's fields (`tls.cert`); here they are the flags typed.
    const flags = (text: string) => text.replace(/\btls\.(cert|key)\b/g, "--tls-$1");
    if (problem)
      throw new DocklensError(
        "INVALID_CONFIG",
        `${flags(problem.field)}: ${flags(problem.message)}`,
      );
  }
  const token = serveToken(options);
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
    await serveFleet(opened, shutdown, options, { hostname, port, https, token });
  } catch (error) {
    // Nodes are joined before serve listens: a failure after stops their upkeep, or it would hang.
    shutdown.abort();
    await opened.close();
    throw error;
  }
}

/** How serve listens: the address, the port (0: any), HTTPS's certificate and key, the token. */
interface ListenAt {
  hostname: string;
  port: number;
  https: { cert: string; key: string } | undefined;
  token: string | undefined;
}

/** Serve `opened`'s fleet until SIGINT or SIGTERM, then exit (see {@link serve}). */
async function serveFleet(
  opened: OpenedFleet,
  shutdown: AbortController,
  options: ServeOptions,
  { hostname, port, https, token }: ListenAt,
): Promise<never> {
  const { fleet } = opened;
  for (const warning of fleet.config.warnings)
    process.stderr.write(
      options.json ? `${JSON.stringify({ warning })}\n` : `docklens: warning: ${warning}\n`,
    );
  // A rule or receiver that cannot be used stops serve before it listens, as a bad config does.
  if (fleet.config.alerts?.rules.length)
    (await import("../core/alerts/alerts.ts")).readAlertRules({ fleet });
  await (await import("./record.ts")).checkRecording(fleet);
  const [
    { createApp, formatRequestLog, MAX_HEADER_BYTES, refuseConnect, refuseUnreadable },
    { toNodeListener },
    { listen },
  ] = await Promise.all([import("../server/app.ts"), import("h3"), import("listhen")]);
  if (options.cors !== undefined)
    usageCheck(
      "--cors",
      corsProblem(options.cors, Boolean(token) || Boolean(fleet.config.tokens?.length)),
    );
  const tokenName = tokenSource(options);
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
    signal: shutdown.signal,
    ...(token ? { token, tokenName } : {}),
    ...(options.cors ? { cors: options.cors } : {}),
    // The name serve was told to listen on is one it is reached by.
    allowedHosts: [...(isIP(options.host) ? [] : [options.host]), ...(options.allowedHost ?? [])],
    ...(options.showSecrets ? { showSecrets: true } : {}),
  });
  const loopback = /^(127\.|::1$|::ffff:127\.)/.test(hostname);
  const listener = await listen(toNodeListener(app), {
    hostname,
    // Port 0 asks for any free port; any other port is that port or an error, never a neighbour.
    // get-port would print on stdout when the port is taken; docklens says so on stderr itself.
    port:
      port === 0
        ? { random: true, verbose: false }
        : { port, alternativePortRange: [0, 0], random: false, verbose: false },
    public: !loopback,
    ...(https ? { https } : {}),
    isProd: true,
    showURL: false,
    autoClose: false,
    qr: false,
    tunnel: false,
  }).catch((error: Error) => {
    throw new DocklensError(
      "LISTEN_FAILED",
      `cannot listen on ${options.host}:${port}: ${error.message}`,
    );
  });
  listener.server.on("connect", refuseConnect);
  listener.server.on("clientError", refuseUnreadable(options.cors ? { cors: options.cors } : {}));
  // Node reads the server's maxHeaderSize as each connection opens (its types leave it out);
  // listhen gives no way to pass it when it creates the server.
  Object.assign(listener.server, { maxHeaderSize: MAX_HEADER_BYTES });
  if (port !== 0 && listener.address.port !== port) {
    await listener.close();
    throw new DocklensError(
      "LISTEN_FAILED",
      `cannot listen on ${options.host}:${port}: the port is in use`,
    );
  }
  // Recording starts once serve listens: a serve that cannot listen leaves nothing running.
  const history = await (await import("./record.ts")).startRecording(fleet, options);
  const { address } = listener.address;
  const host = address.includes(":") ? `[${address}]` : address;
  const url = `${https ? "https" : "http"}://${host}:${listener.address.port}`;
  const tokens = Boolean(token) || Boolean(fleet.config.tokens?.length);
  process.stdout.write(servingLine(opened, url, tokens, options.json));
  const alerts = await startAlertRules(fleet, url, options);
  const warning =
    !loopback &&
    (!tokens
      ? "no token is set: anyone who reaches this port can read every engine"
      : !https
        ? "no --tls-cert is set: tokens cross the network in clear"
        : undefined);
  if (warning)
    process.stderr.write(
      options.json
        ? `${JSON.stringify({ warning: `${options.host} is not loopback and ${warning}` })}\n`
        : `docklens: warning: ${options.host} is not loopback and ${warning}\n`,
    );

  const signal = await new Promise<string>((resolve) => {
    for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => resolve(name));
  });
  // A second signal while draining stops at once.
  for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => process.exit(1));
  if (!options.quiet) {
    const message = "finishing in-flight requests";
    process.stderr.write(
      options.json
        ? `${JSON.stringify({ time: new Date().toISOString(), signal, message })}\n`
        : `docklens: ${signal}: ${message}\n`,
    );
  }
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

/** A usage error naming `flag` when there is a `problem`. */
function usageCheck(flag: string, problem: string | undefined): void {
  if (problem) throw new DocklensError("INVALID_CONFIG", `${flag}: ${problem}`);
}

/**
 * The address `--host` names, resolved here, so that listhen is handed an IP address: given
 * anything it finds malformed, listhen warns and listens on every interface instead
 * (docs/http-interface.md, "Running the server"). A host that is neither a host name nor an IP
 * address, that does not resolve, or whose address is not one of this machine's (where listhen
 * would say it found no free port) is a usage error naming the flag.
 */
async function listenAddress(host: string): Promise<string> {
  const refuse = (why: string) =>
    new DocklensError("INVALID_CONFIG", `--host: ${why}, got ${JSON.stringify(host.slice(0, 80))}`);
  // A zone (`fe80::1%eth0`) is not an address listhen takes as it is.
  if (isIP(host)) {
    if (!/^[\d.:a-fA-F]+$/.test(host)) throw refuse("expected an IP address without a zone");
  } else if (!HOST_NAME.test(host)) throw refuse("expected a host name or an IP address");
  let address = host;
  try {
    if (!isIP(host)) address = (await lookup(host)).address;
  } catch (error) {
    throw refuse(`the name does not resolve (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  // Bound and closed at once, on any port: no traffic leaves, and no port is held.
  const probe = createServer();
  const bound = await new Promise<string | undefined>((resolve) => {
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    probe.listen(0, address, () => probe.close(() => resolve(undefined)));
  });
  if (bound === "EADDRNOTAVAIL")
    throw refuse(
      `not an address of this machine${address === host ? "" : ` (the name resolves to ${address})`}`,
    );
  return address;
}
