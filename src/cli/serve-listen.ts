// Where `docklens serve` listens: its flags read and checked before anything starts (the port,
// the host resolved to an address of this machine, HTTPS's files, the token), then listhen on them.
import { lookup } from "node:dns/promises";
import type { RequestListener } from "node:http";
import { createServer, isIP } from "node:net";
import { DocklensError } from "../core/errors.ts";
import { allowedHostProblem, HOST_NAME } from "../server/exposure.ts";
import { serveToken, type TokenFlags } from "./serve-token.ts";

/** Where serve listens, as its flags say (docs/http-interface.md, "Running the server"). */
export interface ListenFlags extends TokenFlags {
  host: string;
  port: string;
  /** Host names answered without a token, beside loopback, addresses and `host`. */
  allowedHost?: string[];
  cors?: string;
  /** PEM certificate and key: serve HTTPS. */
  tlsCert?: string;
  tlsKey?: string;
}

/** How serve listens: the address, the port (0: any), HTTPS's certificate and key, the token. */
export interface ListenAt {
  hostname: string;
  port: number;
  https: { cert: string; key: string } | undefined;
  token: string | undefined;
}

/** Serve's flags read as where it listens; a bad one is a usage error naming it. */
export async function listenAt(options: ListenFlags): Promise<ListenAt> {
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
  return { hostname, port, https, token: serveToken(options) };
}

/** Whether serve listens on loopback alone: then it needs no token, and says nothing of one. */
export function isLoopback(hostname: string): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(hostname);
}

/**
 * listhen on `at`, serving `handler`: that port or an error, never a neighbour; CONNECT and
 * unreadable requests refused; headers bounded.
 */
export async function listenOn(handler: RequestListener, at: ListenAt, options: ListenFlags) {
  const [{ listen }, { MAX_HEADER_BYTES, refuseConnect, refuseUnreadable }] = await Promise.all([
    import("listhen"),
    import("../server/refusals.ts"),
  ]);
  const listener = await listen(handler, {
    hostname: at.hostname,
    // Port 0 asks for any free port; any other port is that port or an error, never a neighbour.
    // get-port would print on stdout when the port is taken; docklens says so on stderr itself.
    port:
      at.port === 0
        ? { random: true, verbose: false }
        : { port: at.port, alternativePortRange: [0, 0], random: false, verbose: false },
    public: !isLoopback(at.hostname),
    ...(at.https ? { https: at.https } : {}),
    isProd: true,
    showURL: false,
    autoClose: false,
    qr: false,
    tunnel: false,
  }).catch((error: Error) => {
    throw new DocklensError(
      "LISTEN_FAILED",
      `cannot listen on ${options.host}:${at.port}: ${error.message}`,
    );
  });
  listener.server.on("connect", refuseConnect);
  listener.server.on("clientError", refuseUnreadable(options.cors ? { cors: options.cors } : {}));
  // Node reads the server's maxHeaderSize as each connection opens (its types leave it out);
  // listhen gives no way to pass it when it creates the server.
  Object.assign(listener.server, { maxHeaderSize: MAX_HEADER_BYTES });
  if (at.port !== 0 && listener.address.port !== at.port) {
    await listener.close();
    throw new DocklensError(
      "LISTEN_FAILED",
      `cannot listen on ${options.host}:${at.port}: the port is in use`,
    );
  }
  return listener;
}

/** A usage error naming `flag` when there is a `problem`. */
export function usageCheck(flag: string, problem: string | undefined): void {
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
