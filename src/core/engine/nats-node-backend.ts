// A cluster of a node on NATS, as the core sees any cluster: an EngineBackend. Each read is a
// request on the node's read subject; an answer too big for one message, and every stream, comes
// on a subject of its own, message by message, numbered, the hub granting credit as it consumes
// them, so that a slow reader slows the node's engine read rather than fills memory. A lost
// message, a silent node or a broken NATS link ends the stream with an error, never quietly.
import { Readable } from "node:stream";
import {
  RequestError,
  TimeoutError,
  nuid,
  type Msg,
  type NatsConnection,
  type Subscription,
} from "@nats-io/transport-node";
import { DocklensError, ERROR_CODES, type ErrorBody, type ErrorCode } from "../errors.ts";
import { parseEngineJson } from "../json.ts";
import type { EngineBackend } from "./engine-backend.ts";
import { HEADER, SILENCE_LIMIT, STREAM_WINDOW, TICK_MS, nodeSubjects } from "./nats-protocol.ts";

/**
 * Which cluster of which node, over which connection: a cluster's NodeLink, read at each call,
 * as the hub hears from the node (core/node/nats-nodes.ts).
 */
export interface NatsNodeLink {
  /** The hub's connection (always set on a link this backend is made for). */
  nats?: NatsConnection;
  /** The node's name (`far`). */
  name: string;
  /** The cluster's name on the node (`alpha`), not the hub's `far.alpha`. */
  cluster?: string;
  /** Why the hub holds the node down now (no heartbeat, a broken link), with when it was last seen. */
  error?: ErrorBody;
  /** Told when a read finds the node gone (no responder, no answer): its clusters go down at once. */
  lost?: (error: ErrorBody) => void;
}

/** How long a hub waits for a node's first answer when nothing else limits it. */
const OPEN_LIMIT_MS = 120_000;

/** The streams and reads open on each connection, to end them all when its link breaks. */
const openStreams = new WeakMap<NatsConnection, Set<(error: Error) => void>>();

/** The backend of one cluster of a node on NATS. */
export function createNatsNodeBackend(link: NatsNodeLink): EngineBackend {
  return {
    async get(path, signal, options = {}) {
      const read = { cluster: link.cluster, path, query: queryOf(options.query) ?? {} };
      const answer = await openRead(
        link,
        options.stream ? { ...read, stream: true } : read,
        signal,
      );
      if (options.stream && answer.status === 200) return answer.body;
      return settle(answer.status, await collect(answer.body));
    },
    async attach(id, signal) {
      const answer = await openRead(link, { cluster: link.cluster, attach: id }, signal);
      if (answer.status === 200) return answer.body;
      return settle(answer.status, await collect(answer.body)) as never;
    },
    close() {},
  };
}

/** Query parameters as a node takes them: texts (a list for a key that repeats); no undefined. */
function queryOf(query: object | undefined): Record<string, string | string[]> | undefined {
  if (!query) return undefined;
  // true and 5 as the engine's query string writes them; an object (filters) as its JSON.
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  const entries: Array<[string, string | string[]]> = Object.entries(
    query as Record<string, unknown>,
  )
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => [key, Array.isArray(value) ? value.map(text) : text(value)]);
  return Object.fromEntries(entries);
}

/** docklens's own error of a node (its code and message), as the node said it. */
function nodeError(node: string, code: string, said: unknown): DocklensError {
  const message = (said as { message?: unknown } | null)?.message;
  const known = (ERROR_CODES as string[]).includes(code) ? (code as ErrorCode) : "ENGINE_ERROR";
  return new DocklensError(
    known,
    typeof message === "string" ? message : `node ${JSON.stringify(node)} answered ${code}`,
  );
}

/** The parsed JSON of a 200, or the engine error the core translates. */
function settle(status: number, bytes: Buffer): unknown {
  const text = bytes.toString("utf8");
  let json: unknown = text;
  try {
    json = parseEngineJson(text);
  } catch {
    // Kept as text, for the core to refuse as no JSON.
  }
  if (status === 200) return json;
  throw Object.assign(new Error(`the node answered ${status}`), { statusCode: status, json });
}

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Send a read; resolve with the node's status and its body as a stream of the answer's bytes. */
async function openRead(
  link: NatsNodeLink,
  read: object,
  signal: AbortSignal,
): Promise<{ status: number; body: Readable }> {
  const { nats, name: node } = link;
  // The hub knows the node down (remembered from an earlier run, the NATS server not reached, say):
  // its reason, rather than a wait on a node that is not there.
  if (link.error || link.cluster === undefined)
    throw new DocklensError(
      link.error?.code ?? "ENGINE_UNREACHABLE",
      link.error?.message ?? `node ${JSON.stringify(node)} was never reached`,
    );
  if (!nats)
    throw new DocklensError("INTERNAL_ERROR", `node ${JSON.stringify(node)} has no NATS link`);
  if (nats.isClosed())
    throw new DocklensError("ENGINE_UNREACHABLE", `node ${JSON.stringify(node)} over NATS: closed`);
  const subjects = nodeSubjects(node);
  const id = nuid.next();
  // Subscribed before the read goes, so that no message of the answer comes before it.
  const { stream: incoming, drop } = answerStream(nats, node, id);
  const payload = JSON.stringify({ ...read, id, credit: STREAM_WINDOW });
  let msg: Msg;
  let onAbort = () => {};
  let onBroken: (error: Error) => void = () => {};
  try {
    signal.throwIfAborted();
    // Ended by the caller, or by the link's loss: nats.js would hold the request through a
    // reconnect, while the hub lists the node down at once (its clusters' reads fail with that).
    const interrupted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error("cancelled"));
      onBroken = reject;
      signal.addEventListener("abort", onAbort, { once: true });
      streamsOf(nats).add(onBroken);
    });
    msg = await Promise.race([
      nats.request(subjects.read, payload, { timeout: OPEN_LIMIT_MS }),
      interrupted,
    ]);
  } catch (error) {
    drop();
    if (signal.aborted) throw Object.assign(new Error("cancelled"), { name: "AbortError" });
    const gone =
      error instanceof RequestError && error.isNoResponders()
        ? "is not on NATS"
        : error instanceof TimeoutError
          ? `did not answer in ${OPEN_LIMIT_MS / 1000} s`
          : undefined;
    if (!gone)
      throw new DocklensError(
        "ENGINE_UNREACHABLE",
        `node ${JSON.stringify(node)} over NATS: ${(error as Error).message}`,
        { cause: error },
      );
    // Dead or cut off: its clusters are listed down now, not three missed heartbeats later; the
    // message the hub keeps says when it was last seen.
    link.lost?.({ code: "ENGINE_UNREACHABLE", message: `node ${JSON.stringify(node)} ${gone}` });
    throw new DocklensError(
      "ENGINE_UNREACHABLE",
      // As `lost` kept it, with the last time seen.
      (link.error as ErrorBody | undefined)?.message ?? `node ${JSON.stringify(node)} ${gone}`,
      { cause: error },
    );
  } finally {
    signal.removeEventListener("abort", onAbort);
    streamsOf(nats).delete(onBroken);
  }
  const status = Number(msg.headers?.get(HEADER.status));
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    drop();
    throw new DocklensError("ENGINE_ERROR", `node ${JSON.stringify(node)} answered no status`);
  }
  const code = msg.headers?.get(HEADER.error);
  if (code) {
    drop();
    throw nodeError(node, code, safeJson(msg.data));
  }
  if (msg.headers?.get(HEADER.kind) !== "stream") {
    drop();
    return { status, body: Readable.from([Buffer.from(msg.data)]) };
  }
  signal.addEventListener("abort", () => incoming.destroy(), { once: true });
  return { status, body: incoming };
}

/**
 * The stream of answer `id` of `node`: messages numbered from 1 (data, then end or error; ticks
 * repeat the last number). Credit goes back as the reader takes the data: a reader that stops
 * stops the node within {@link STREAM_WINDOW} messages.
 */
function answerStream(
  nats: NatsConnection,
  node: string,
  id: string,
): { stream: Readable; drop: () => void } {
  const subjects = nodeSubjects(node);
  let seq = 0;
  let owed = 0;
  let heardAt = Date.now();
  let done = false;
  const where = `node ${JSON.stringify(node)}`;
  const grant = (body: object) => {
    if (!nats.isClosed()) nats.publish(subjects.credit(id), JSON.stringify(body));
  };
  const payBack = () => {
    if (owed >= STREAM_WINDOW / 2) {
      grant({ credit: owed });
      owed = 0;
    }
  };
  const fail = (message: string) =>
    stream.destroy(new DocklensError("ENGINE_UNREACHABLE", `${where}: ${message}`));
  const stream: Readable = new Readable({
    read: payBack,
    destroy(error, callback) {
      if (!done) grant({ cancel: true });
      cleanup();
      callback(error);
    },
  });
  const onMessage = (msg: Msg) => {
    heardAt = Date.now();
    const kind = msg.headers?.get(HEADER.kind);
    const number = Number(msg.headers?.get(HEADER.seq));
    if (kind === "tick") return void (number > seq && fail("a message of the stream was lost"));
    if (number !== seq + 1) return fail("a message of the stream was lost");
    seq = number;
    if (kind === "data") {
      owed++;
      if (stream.push(Buffer.from(msg.data))) payBack();
    } else if (kind === "end") {
      done = true;
      stream.push(null);
      cleanup();
    } else if (kind === "error") {
      done = true;
      const said = safeJson(msg.data) as { code?: unknown } | undefined;
      stream.destroy(nodeError(node, typeof said?.code === "string" ? said.code : "", said));
    } else fail("sent a message docklens does not know");
  };
  // Failed before anyone reads it (the link broke while the read was asked): the error stays on
  // the stream for a reader to meet, and is no uncaught exception that ends the process.
  stream.on("error", () => {});
  const subscription: Subscription = nats.subscribe(subjects.out(id), {
    callback: (_, msg) => void onMessage(msg),
  });
  // The hub says it is there (a grant of what it owes, maybe none) and listens for the node's ticks.
  const ticks = setInterval(() => {
    if (Date.now() - heardAt > SILENCE_LIMIT * TICK_MS)
      return fail(`silent for ${Math.round((Date.now() - heardAt) / 1000)} s`);
    grant({ credit: owed });
    owed = 0;
  }, TICK_MS);
  const broken = (error: Error) => fail(error.message);
  streamsOf(nats).add(broken);
  function cleanup() {
    clearInterval(ticks);
    subscription.unsubscribe();
    streamsOf(nats).delete(broken);
  }
  const drop = () => {
    done = true; // the node sent no stream: nothing to cancel
    stream.destroy();
  };
  return { stream, drop };
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(data).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The set of open streams and reads of `nats`, watching its link on first use. */
function streamsOf(nats: NatsConnection): Set<(error: Error) => void> {
  let streams = openStreams.get(nats);
  if (!streams) {
    const set = new Set<(error: Error) => void>();
    streams = set;
    openStreams.set(nats, set);
    void (async () => {
      for await (const status of nats.status())
        if (status.type === "disconnect")
          for (const end of [...set]) end(new Error("the link to NATS broke"));
      for (const end of [...set]) end(new Error("the NATS connection closed"));
    })();
  }
  return streams;
}
