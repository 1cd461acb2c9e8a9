import { readFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import type Dockerode from "dockerode";
import type { ClusterConfig } from "./cluster-config.ts";
import { describeEndpoint } from "./endpoint.ts";
import { DocklensError, isDocklensError, type ErrorCode } from "./errors.ts";
import { parseEngineJson } from "./json.ts";
import type { CoreOptions, EnginePurpose } from "./registry.ts";

/**
 * Connections a client opens to its engine at most: calls wait for a free keep-alive socket,
 * while streams (logs --follow, stats, attach) last long and so use a pool of their own, so that
 * many open streams never starve the calls.
 */
const MAX_SOCKETS = { call: 16, stream: 256 } as const;

/** A dockerode client and how to close its idle connections. */
export interface EngineClient {
  docker: Dockerode;
  close(): void;
}

/** Build a dockerode client of one cluster; dockerode itself is loaded here, on first use. */
export async function createEngineClient(
  cluster: ClusterConfig,
  purpose: keyof typeof MAX_SOCKETS = "call",
): Promise<EngineClient> {
  const [{ default: Docker }, http] = await Promise.all([import("dockerode"), import("node:http")]);
  // dockerode 5 takes `agent` (passed to every request); @types/dockerode 4 does not declare it.
  // SSH engines speak plain HTTP through the SSH agent below.
  const options: Dockerode.DockerOptions & { agent?: import("node:http").Agent } = {
    protocol:
      cluster.protocol === "unix" ? undefined : cluster.protocol === "https" ? "https" : "http",
  };
  let agent: import("node:http").Agent | undefined;
  if (cluster.protocol === "unix") {
    options.socketPath = cluster.socketPath;
  } else {
    options.host = cluster.hostname;
    options.port = cluster.port;
  }
  if (cluster.protocol === "https") {
    // `https://host` without a `tls` block: TLS with the system's CAs and no client certificate.
    const [ca, cert, key] = await Promise.all(
      [cluster.tls?.ca, cluster.tls?.cert, cluster.tls?.key].map(readKeyFile),
    );
    // A docker context's SkipTLSVerify: the engine's certificate is not checked, as the docker CLI then does not.
    const keys = {
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(cluster.tls?.insecure ? { rejectUnauthorized: false } : {}),
    };
    Object.assign(options, keys);
    const https = await import("node:https"); // TLS loads only for TLS engines.
    agent = new https.Agent({
      keepAlive: purpose === "call",
      maxSockets: MAX_SOCKETS[purpose],
      ...keys,
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
    agent = new http.Agent({
      keepAlive: purpose === "call",
      maxSockets: MAX_SOCKETS[purpose],
      servername: "",
    } as import("node:http").AgentOptions);
  }
  if (agent) options.agent = agent;
  return { docker: new Docker(options), close: () => agent?.destroy() };
}

async function readKeyFile(path: string | undefined): Promise<Buffer | undefined> {
  if (!path) return undefined;
  try {
    return await readFile(path);
  } catch (error) {
    // The message names the kind of failure only: key paths never leave docklens (D15).
    throw new Error(
      `cannot read a TLS/SSH file of this cluster (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      { cause: error },
    );
  }
}

/**
 * What an engine status means for the call at hand, e.g.
 * `{ 404: { code: "CONTAINER_NOT_FOUND", message: 'container "web" not found in cluster "a"' } }`;
 * a message may be made from the engine's own (a filter value it refused says why).
 */
export type StatusErrors = Partial<
  Record<
    number,
    {
      code: ErrorCode;
      message: string | ((engineMessage: string) => string);
      param?: string;
      /** Only when the engine's message matches. */ when?: RegExp;
    }
  >
>;

/** Options of {@link callEngine}. */
export interface CallEngineOptions extends CoreOptions {
  /** Engine statuses that mean something for this call (a 404, a 409); others are `ENGINE_ERROR`. */
  statuses?: StatusErrors;
  /**
   * Names a read whose result depends on nothing but the key and the cluster: identical reads in
   * flight then share one engine call (and, with the cluster's `cacheTtlMs`, a recent result).
   */
  read?: string;
  /** The client to use: `stream` for calls that open a long stream. */
  purpose?: EnginePurpose;
}

/**
 * Run one engine operation under the cluster's time limit (D12), within its bound on calls in
 * flight, sharing identical reads, and translate whatever it throws into a DocklensError (D10).
 * `run` must pass `signal` on to every dockerode call.
 */
export function callEngine<T>(
  cluster: ClusterConfig,
  run: (docker: Dockerode, signal: AbortSignal) => Promise<T>,
  options: CallEngineOptions,
): Promise<T> {
  const slot = options.registry.slot(cluster);
  const call = async (caller: AbortSignal | undefined) => {
    slot.calls++;
    try {
      return await withDeadline(cluster, caller, options.statuses, (signal) =>
        // The limiter settles on abort, waiting or running, even if a library ignores the signal.
        slot.limiter.run(
          async () => run(await options.registry.engine(cluster, options.purpose), signal),
          signal,
        ),
      );
    } catch (error) {
      // A caller that left (a client gone) is no failure of the engine's.
      if (!caller?.aborted) {
        const code = (error as DocklensError).code;
        slot.failures.set(code, (slot.failures.get(code) ?? 0) + 1);
      }
      throw error;
    }
  };
  return options.read ? slot.reads.run(options.read, call, options.signal) : call(options.signal);
}

/** `work` under the cluster's time limit (and the caller's signal), its errors translated. */
async function withDeadline<T>(
  cluster: ClusterConfig,
  caller: AbortSignal | undefined,
  statuses: StatusErrors | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = AbortSignal.timeout(cluster.timeoutMs);
  try {
    return await work(caller ? AbortSignal.any([deadline, caller]) : deadline);
  } catch (error) {
    throw translateEngineError(error, cluster, {
      timedOut: deadline.aborted,
      ...(statuses ? { statuses } : {}),
    });
  }
}

/** Every HTTP status, so that docker-modem hands docklens the body of any answer to read itself. */
const ANY_STATUS = Object.fromEntries(
  Array.from({ length: 500 }, (_, index) => [index + 100, true]),
);

/**
 * A GET through dockerode's modem, the one way docklens asks an engine for something: with the
 * abort signal wired (some dockerode methods drop it), and the body read by docklens itself, so
 * that JSON is parsed with 64-bit integers kept exact ({@link parseEngineJson}). `stream`
 * returns the body as a stream once the engine answered 200; otherwise the parsed JSON. Any
 * other status throws `{ statusCode, json }` for {@link translateEngineError}. `path` holds only
 * names already checked and encoded.
 */
export async function dialEngine(
  docker: Dockerode,
  path: string,
  signal: AbortSignal,
  options: { query?: object; stream?: boolean } = {},
): Promise<unknown> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    docker.modem.dial(
      {
        path: `${path}?`,
        method: "GET",
        options: { ...options.query },
        isStream: true,
        abortSignal: signal,
        statusCodes: ANY_STATUS,
      },
      (error: Error | null, body: unknown) =>
        error ? reject(error) : resolve(body as IncomingMessage),
    );
  });
  if (options.stream && response.statusCode === 200) return response;
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (response.statusCode === 200) return parseBody(text);
  throw Object.assign(new Error(`the engine answered ${response.statusCode}`), {
    statusCode: response.statusCode,
    json: parseBody(text),
  });
}

/** JSON when it is JSON; else the text, for {@link expectBody} to refuse. */
function parseBody(text: string): unknown {
  try {
    return parseEngineJson(text);
  } catch {
    return text;
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  ENOENT: "no such socket",
  EACCES: "permission denied on the socket",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
};

/** The engine's words for an id prefix shared by several containers, images or networks. */
const AMBIGUOUS = /multiple IDs found with provided prefix|is ambiguous \(\d+ matches found/i;

/** Translate an error of an engine call into the codes of D10; the one place that does. */
export function translateEngineError(
  error: unknown,
  cluster: ClusterConfig,
  context: { timedOut?: boolean; statuses?: StatusErrors } = {},
): DocklensError {
  if (isDocklensError(error)) return error;
  const where = engineOf(cluster);
  if (context.timedOut)
    return new DocklensError(
      "ENGINE_TIMEOUT",
      `${where} did not answer within ${cluster.timeoutMs} ms`,
    );
  const err = error as {
    name?: string;
    code?: string;
    statusCode?: number;
    json?: unknown;
    message?: string;
    level?: string;
  };
  if (err?.name === "AbortError")
    return new DocklensError("ENGINE_ERROR", `the call to ${where} was cancelled`);
  if (typeof err?.statusCode === "number") {
    const message = engineMessage(err.json) ?? "no message";
    // The user's id prefix matches several items: older engines answer 500, newer 400.
    if (AMBIGUOUS.test(message))
      return new DocklensError(
        "AMBIGUOUS_NAME",
        `${where} found several items for one name: ${message}`,
      );
    const meaning = context.statuses?.[err.statusCode];
    if (meaning && (!meaning.when || meaning.when.test(message)))
      return new DocklensError(
        meaning.code,
        typeof meaning.message === "function" ? meaning.message(message) : meaning.message,
        { ...(meaning.param ? { param: meaning.param } : {}) },
      );
    return new DocklensError("ENGINE_ERROR", `${where} answered ${err.statusCode}: ${message}`);
  }
  const code = err?.code ?? "";
  const reason =
    UNREACHABLE[code] ??
    (/TLS|CERT|SSL/.test(code) || /tls|certificate|ssl/i.test(err?.message ?? "")
      ? `TLS failure (${code || "handshake"})`
      : undefined) ??
    (err?.level ? `SSH failure (${err.level})` : undefined) ??
    (code ? code : err?.message === "socket hang up" ? "connection closed" : `unexpected failure`);
  return new DocklensError("ENGINE_UNREACHABLE", `cannot reach ${where}: ${reason}`);
}

function engineMessage(json: unknown): string | undefined {
  if (
    json &&
    typeof json === "object" &&
    typeof (json as { message?: unknown }).message === "string"
  ) {
    return (json as { message: string }).message.slice(0, 300);
  }
  return typeof json === "string" ? json.slice(0, 300) : undefined;
}

/**
 * Check that an engine answered with JSON of the expected kind. Something else on the
 * engine's port (a web server answering HTML, say) is `ENGINE_ERROR`, not a crash later.
 */
export function expectBody<T>(value: unknown, kind: "array" | "object", cluster: ClusterConfig): T {
  const ok =
    kind === "array"
      ? Array.isArray(value)
      : value !== null &&
        typeof value === "object" &&
        !Array.isArray(value) &&
        !Buffer.isBuffer(value);
  if (!ok) throw new DocklensError("ENGINE_ERROR", `${engineOf(cluster)} did not answer with JSON`);
  return value as T;
}

/** How messages name an engine: `the engine of cluster "prod" (tcp://10.0.0.5:2375)`. */
function engineOf(cluster: ClusterConfig): string {
  return `the engine of cluster "${cluster.name}" (${describeEndpoint(cluster)})`;
}
