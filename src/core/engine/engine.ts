import type { ClusterConfig } from "../config/cluster-config.ts";
import { describeEndpoint } from "../config/endpoint.ts";
import { DocklensError, isDocklensError, type ErrorCode } from "../errors.ts";
import { settleOnAbort } from "../flow.ts";
import type { EngineBackend } from "./engine-backend.ts";
import { KeyFileError } from "./engine-pools.ts";
import type { EnginePurpose } from "./engine-client.ts";
import { fleetEngine, type CoreOptions } from "./fleet.ts";
import { readKey, shareBody, type EngineRead } from "./shared-reads.ts";

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
   * What this call reads, when its result depends on nothing else but the cluster: identical
   * reads in flight then share one engine call (and, with the cluster's `cacheTtlMs`, a recent
   * result), so the result is shared too and must never be changed.
   */
  read?: EngineRead;
  /** The client to use: `stream` for calls that open a long stream, `sample` for stats samples. */
  purpose?: EnginePurpose;
  /** This call's own time limit, in place of the cluster's `timeoutMs` (a slow `/system/df`). */
  timeoutMs?: number;
  /** Asked even while the cluster is known down: the mirror's own reads, which find it back. */
  probe?: boolean;
}

/**
 * Run one engine operation under the cluster's time limit, within its bound on calls in flight,
 * sharing identical reads (which fail at once while the cluster's mirror knows its engine down
 * or hung: `EngineSlot.down`), and translate whatever it throws into a DocklensError
 * (docs/http-interface.md, "Time limits" and "Error codes"). `run` must pass `signal` on to
 * every engine read.
 */
export function callEngine<T>(
  cluster: ClusterConfig,
  run: (engine: EngineBackend, signal: AbortSignal) => Promise<T>,
  options: CallEngineOptions,
): Promise<T> {
  const slot = options.fleet.slot(cluster);
  const call = async (caller: AbortSignal | undefined) => {
    slot.calls++;
    try {
      const engine = await clientOf(cluster, options, caller);
      const limit = options.timeoutMs ?? cluster.timeoutMs;
      return await withDeadline(cluster, { limitMs: limit }, caller, options.statuses, (signal) =>
        // The limiter settles on abort, waiting or running, even if a library ignores the signal.
        (options.purpose === "sample" ? slot.samples : slot.limiter).run(
          () => run(engine, signal),
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
  if (!options.read) return call(options.signal);
  // An engine the cluster's mirror knows down or hung answers at once with its error.
  if (slot.down && !options.probe)
    return Promise.reject(new DocklensError(slot.down.code, slot.down.message));
  return slot.reads.run(
    readKey(options.read),
    async (signal) => shareBody(await call(signal)),
    options.signal,
  );
}

/** How long building a cluster's engine client may take: loading it, reading its key files. */
const CLIENT_LIMIT_MS = 10_000;

/**
 * The cluster's engine client, built before the engine's time limit starts: loading it
 * (docker-modem, on a process's first call) is docklens's own time, which a loaded machine
 * stretched past a short limit. Bounded apart: a starved machine, or a key file on a mount that
 * does not answer.
 */
function clientOf(
  cluster: ClusterConfig,
  options: CallEngineOptions,
  caller: AbortSignal | undefined,
): EngineBackend | Promise<EngineBackend> {
  const client = fleetEngine(options.fleet, cluster, options.purpose);
  // Built already (every call but a cluster's first): nothing to wait for, so no timer.
  if (!(client instanceof Promise)) return client;
  const limit = {
    limitMs: CLIENT_LIMIT_MS,
    timeout:
      `docklens could not load the engine client of cluster "${cluster.name}" within ` +
      `${CLIENT_LIMIT_MS} ms (its code, or its TLS or SSH files)`,
  };
  return withDeadline(cluster, limit, caller, undefined, (signal) => settleOnAbort(client, signal));
}

/** `work` under a time limit (and the caller's signal), its errors translated. */
async function withDeadline<T>(
  cluster: ClusterConfig,
  limit: { limitMs: number; timeout?: string },
  caller: AbortSignal | undefined,
  statuses: StatusErrors | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = AbortSignal.timeout(limit.limitMs);
  try {
    return await work(caller ? AbortSignal.any([deadline, caller]) : deadline);
  } catch (error) {
    throw translateEngineError(error, cluster, {
      timedOut: deadline.aborted,
      ...limit,
      ...(statuses ? { statuses } : {}),
    });
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

/**
 * Translate an error of an engine call into docklens's error codes; the one place that does
 * (docs/http-interface.md, "Error codes"). The error it was made from is its `cause`.
 */
export function translateEngineError(
  error: unknown,
  cluster: ClusterConfig,
  context: { timedOut?: boolean; limitMs?: number; timeout?: string; statuses?: StatusErrors } = {},
): DocklensError {
  if (isDocklensError(error)) return error;
  const fail = (code: ErrorCode, message: string, param?: string) =>
    new DocklensError(code, message, { param, cause: error });
  const where = engineOf(cluster);
  if (context.timedOut)
    return fail(
      "ENGINE_TIMEOUT",
      context.timeout ??
        `${where} did not answer within ${context.limitMs ?? cluster.timeoutMs} ms`,
    );
  const err = error as {
    name?: string;
    code?: string;
    statusCode?: number;
    json?: unknown;
    message?: string;
    level?: string;
  };
  if (err?.name === "AbortError") return fail("ENGINE_ERROR", `the call to ${where} was cancelled`);
  if (typeof err?.statusCode === "number") {
    const message = engineMessage(err.json) ?? "no message";
    // The user's id prefix matches several items: older engines answer 500, newer 400.
    if (AMBIGUOUS.test(message))
      return fail("AMBIGUOUS_NAME", `${where} found several items for one name: ${message}`);
    const meaning = context.statuses?.[err.statusCode];
    if (meaning && (!meaning.when || meaning.when.test(message)))
      return fail(
        meaning.code,
        typeof meaning.message === "function" ? meaning.message(message) : meaning.message,
        meaning.param,
      );
    return fail("ENGINE_ERROR", `${where} answered ${err.statusCode}: ${message}`);
  }
  const code = err?.code ?? "";
  const reason =
    (error instanceof KeyFileError ? error.message : undefined) ??
    UNREACHABLE[code] ??
    // OpenSSL's words for an answer that is no TLS record: a plain HTTP engine's `HTTP/1.1 400`.
    (code === "EPROTO" &&
    /wrong version number|packet length too long|http request/i.test(err.message ?? "")
      ? "TLS failure: the engine seems to speak plain HTTP (drop tls, or use tcp:// or http://)"
      : undefined) ??
    (/TLS|CERT|SSL/.test(code) || /tls|certificate|ssl/i.test(err?.message ?? "")
      ? `TLS failure (${code || "handshake"})`
      : undefined) ??
    (err?.level ? `SSH failure (${err.level})` : undefined) ??
    (code ? code : err?.message === "socket hang up" ? "connection closed" : `unexpected failure`);
  return fail("ENGINE_UNREACHABLE", `cannot reach ${where}: ${reason}`);
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
