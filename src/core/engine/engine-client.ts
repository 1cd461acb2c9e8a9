// The connection to one engine: requests over a Unix socket, TCP, TLS or SSH, with its own
// pools of sockets. Only the fleet (fleet.ts) builds them.
import type { Agent, AgentOptions, IncomingMessage } from "node:http";
import type { ClusterConfig } from "../config/cluster-config.ts";

/**
 * Connections a client opens to its engine at most: calls wait for a free keep-alive socket,
 * while streams (logs --follow, stats, attach) last long and so use a pool of their own, so that
 * many open streams never starve the calls. Stats samples of many containers (each waits about a
 * second for the engine's second reading) have a keep-alive pool of their own, for the same reason.
 */
const MAX_SOCKETS = { call: 16, stream: 256, sample: 64 } as const;

/** One request to an engine: a path of names already checked and encoded, and its query. */
export interface EngineRequest {
  /** Values as docker-modem wrote them: objects (filters) as JSON, arrays as repeated keys. */
  query?: object;
  /** GET, but attach's POST (which changes nothing: it only listens). */
  method?: "GET" | "POST";
  signal: AbortSignal;
}

/** An engine as the core asks it: one HTTP request, answered with the response of any status. */
export interface Engine {
  request(path: string, request: EngineRequest): Promise<IncomingMessage>;
}

/** An engine and how to close its idle connections. */
export interface EngineClient {
  engine: Engine;
  close(): void;
}

/**
 * Which connections an engine client uses: calls share a small keep-alive pool; streams and
 * stats samples have their own.
 */
export type EnginePurpose = keyof typeof MAX_SOCKETS;

/**
 * Build the client of one cluster's engine: Node's HTTP client over an agent of its own, which
 * holds the TLS files or the SSH connection. No Docker client library: docklens only ever sends
 * a GET (or attach's POST) and reads the body itself, and dockerode with docker-modem cost a
 * CLI run about 10 ms to load.
 */
export async function createEngineClient(
  cluster: ClusterConfig,
  purpose: EnginePurpose = "call",
): Promise<EngineClient> {
  // Not import("node:http"): its ESM namespace reads every export, and on Node 22 and later one
  // of them loads undici (fetch, WebSocket), which costs a CLI run about 25 ms.
  let transport: typeof import("node:http") = process.getBuiltinModule("node:http");
  let agent: Agent;
  if (cluster.protocol === "https") {
    // `https://host` without a `tls` block: TLS with the system's CAs and no client certificate.
    const [ca, cert, key] = await Promise.all(
      [cluster.tls?.ca, cluster.tls?.cert, cluster.tls?.key].map(readKeyFile),
    );
    const https = process.getBuiltinModule("node:https"); // TLS loads only for TLS engines.
    transport = https as unknown as typeof import("node:http");
    agent = new https.Agent({
      keepAlive: purpose !== "stream",
      maxSockets: MAX_SOCKETS[purpose],
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      // A docker context's SkipTLSVerify: the engine's certificate is not checked, as the docker CLI then does not.
      ...(cluster.tls?.insecure ? { rejectUnauthorized: false } : {}),
    });
  } else if (cluster.protocol === "ssh") {
    // Plain HTTP over our own SSH agent (see ssh-agent.ts); ssh2 loads only for SSH clusters.
    const [{ createSshAgent }, ssh, privateKey] = await Promise.all([
      import("./ssh-agent.ts"),
      import("ssh2"),
      readKeyFile(cluster.ssh?.privateKey),
    ]);
    const username = cluster.ssh?.username ?? cluster.username;
    const auth = privateKey
      ? { privateKey }
      : process.env.SSH_AUTH_SOCK
        ? { agent: process.env.SSH_AUTH_SOCK }
        : {};
    agent = createSshAgent(
      ssh.default ?? ssh,
      { host: cluster.hostname!, port: cluster.port, ...(username ? { username } : {}), ...auth },
      MAX_SOCKETS[purpose],
    );
  } else {
    // No TLS, so no server name: without one, Node derives it for every request and checks it
    // with net.isIP, whose IPv6 pattern costs a CLI run about 3 ms to compile on first use.
    agent = new transport.Agent({
      keepAlive: purpose !== "stream",
      maxSockets: MAX_SOCKETS[purpose],
      servername: "",
    } as AgentOptions);
  }
  const where =
    cluster.protocol === "unix"
      ? { socketPath: cluster.socketPath }
      : { host: cluster.hostname, port: cluster.port };
  const engine: Engine = {
    request: (path, { query, method = "GET", signal }) =>
      new Promise((resolve, reject) => {
        const search = query ? queryString(query) : "";
        const request = transport.request(
          { ...where, agent, method, path: search ? `${path}?${search}` : path, signal },
          resolve,
        );
        // Kept after the answer: a later error (a stream cut, a caller that left) must not go
        // unhandled; the response carries it to whoever reads the body.
        request.on("error", reject).end();
      }),
  };
  return { engine, close: () => agent.destroy() };
}

/** A query as docker-modem wrote it: an object value (filters) as JSON, an array as repeated keys. */
function queryString(query: object): string {
  const values = Object.entries(query as Record<string, unknown>).map(
    ([key, value]): [string, unknown] => [
      key,
      value && typeof value === "object" && !Array.isArray(value) ? JSON.stringify(value) : value,
    ],
  );
  return process
    .getBuiltinModule("node:querystring")
    .stringify(Object.fromEntries(values) as import("node:querystring").ParsedUrlQueryInput);
}

async function readKeyFile(path: string | undefined): Promise<Buffer | undefined> {
  if (!path) return undefined;
  try {
    // Loaded here: node:fs/promises costs a CLI run ~3 ms, and only key files need it.
    return await process.getBuiltinModule("node:fs/promises").readFile(path);
  } catch (error) {
    // The message names the kind of failure only: key paths never leave docklens
    // (docs/http-interface.md, "Secrets").
    throw new Error(
      `cannot read a TLS/SSH file of this cluster (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      { cause: error },
    );
  }
}
