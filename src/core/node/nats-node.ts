// The node's side of NATS (`docklens node`): it takes reads on its own subject, hands each to
// the answerer every transport shares (engine-read.ts: allow-list and checks), and sends the
// answer back in messages the server's max_payload allows, a stream no faster than the hub
// grants credit for. It announces itself with a heartbeat and answers hubs' discovery.
import { Readable } from "node:stream";
import { headers, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import { isDocklensError } from "../errors.ts";
import { toJsonText } from "../json.ts";
import type { NodeRead, NodeReadAnswer } from "./engine-read.ts";
import {
  DISCOVER_SUBJECT,
  HEADER,
  MAX_CHUNK_BYTES,
  TICK_MS,
  decodeGrant,
  decodeRead,
  nodeSubjects,
} from "../engine/nats-protocol.ts";
import { NodeAnswers } from "./nats-answers.ts";

/** Options of {@link serveNodeOverNats}. */
export interface ServeNodeOptions {
  /** A connection made by connectNats. */
  nats: NatsConnection;
  /** The node's name: its clusters appear as `<name>.<cluster>` in a hub. */
  name: string;
  /** The names of the clusters it serves, asked for each heartbeat. */
  clusters: () => string[];
  /** Answer one read (answerEngineRead): the allow-list and checks live there, never here. */
  answer: (read: NodeRead, signal: AbortSignal) => Promise<NodeReadAnswer>;
  /** How often it says it is there; 5 s unset. */
  heartbeatMs?: number;
}

/** A node on NATS, until closed. */
export interface NatsNode {
  /** Answers in flight now (streams open among them). */
  readonly answering: number;
  /** Say goodbye to hubs, end every open answer, and drain the subscriptions. */
  close(): Promise<void>;
}

/** Answers in flight at most: more are refused (429) rather than queued. */
const MAX_ANSWERS = 1024;

/** Serve reads over NATS as node `options.name` (docs/guide/nats.md). */
export function serveNodeOverNats(options: ServeNodeOptions): NatsNode {
  const { nats, name } = options;
  const subjects = nodeSubjects(name);
  const everyMs = options.heartbeatMs ?? 5000;
  const answers = new NodeAnswers(nats, () =>
    Math.min(MAX_CHUNK_BYTES, (nats.info?.max_payload ?? 1 << 20) - 1024),
  );
  const hello = (stopping = false) =>
    JSON.stringify({
      name,
      clusters: options.clusters(),
      everyMs,
      ...(stopping ? { stopping } : {}),
    });
  const onRead = (msg: Msg) => answerRead(msg, { name, answers, subjects, answer: options.answer });
  const onGrant = (msg: Msg) => {
    const decoded = decodeGrant(msg.data);
    // Noise changes nothing.
    if (decoded.ok)
      answers.grant(msg.subject.slice(msg.subject.lastIndexOf(".") + 1), decoded.value);
  };
  const subscriptions: Subscription[] = [
    nats.subscribe(subjects.read, { callback: (_, msg) => void onRead(msg) }),
    nats.subscribe(subjects.credits, { callback: (_, msg) => onGrant(msg) }),
    nats.subscribe(DISCOVER_SUBJECT, { callback: (_, msg) => void msg.respond(hello()) }),
  ];
  const beat = () => nats.publish(subjects.heartbeat, hello());
  beat();
  const heartbeat = setInterval(beat, everyMs);
  const ticks = setInterval(() => answers.tick(), TICK_MS);
  // A broken link ends every answer: the hub's side ends them too, and says so. A mended one is
  // announced at once: hubs that asked who is there while it was away hear it now, not a beat later.
  void (async () => {
    for await (const status of nats.status())
      if (status.type === "disconnect") answers.finishAll();
      else if (status.type === "reconnect") beat();
  })();

  return {
    get answering() {
      return answers.size;
    },
    async close() {
      clearInterval(heartbeat);
      clearInterval(ticks);
      answers.finishAll();
      if (nats.isClosed()) return;
      nats.publish(subjects.heartbeat, hello(true));
      for (const subscription of subscriptions) subscription.unsubscribe();
      await nats.flush().catch(() => {});
    },
  };
}

/**
 * One read from a hub: refused when it is malformed, its id in use or the node at its most;
 * else answered by `answer`, in the reply when it fits one message, else as a run of messages.
 */
async function answerRead(
  msg: Msg,
  node: {
    name: string;
    answers: NodeAnswers;
    subjects: ReturnType<typeof nodeSubjects>;
    answer: ServeNodeOptions["answer"];
  },
): Promise<void> {
  const { name, answers } = node;
  if (!msg.reply) return; // nobody to answer
  const decoded = decodeRead(msg.data);
  if (!decoded.ok)
    return refuse(msg, 400, "INVALID_QUERY", `node ${name} refused a read: ${decoded.error}`);
  const { id, credit, ...read } = decoded.value;
  if (answers.size >= MAX_ANSWERS)
    return refuse(
      msg,
      429,
      "TOO_MANY_STREAMS",
      `node ${name} answers ${MAX_ANSWERS} reads at once, its most`,
    );
  if (answers.has(id))
    return refuse(msg, 400, "INVALID_QUERY", `node ${name} refused a read: its id is in use`);
  const answer = answers.open(id, credit, node.subjects.out(id));
  let result: NodeReadAnswer;
  try {
    result = await node.answer(read, answer.controller.signal);
  } catch (error) {
    answers.drop(id);
    // docklens's own refusal (READ_NOT_ALLOWED, INVALID_NAME, an engine unreachable): as it is.
    if (isDocklensError(error)) return refuse(msg, error.status, error.code, error.message);
    return refuse(msg, 500, "INTERNAL_ERROR", `node ${name} failed to answer a read`);
  }
  if (!answers.has(id)) {
    // Cancelled or cut meanwhile.
    if (result.kind === "stream") void result.chunks.return(undefined);
    return;
  }
  if (result.kind === "stream") {
    reply(msg, 200, "", "stream");
    return answers.pump(id, Readable.from(result.chunks, { objectMode: false }));
  }
  const status = result.kind === "body" ? 200 : result.status;
  const body = new TextEncoder().encode(toJsonText(result.body ?? null));
  if (body.length <= answers.chunkBytes()) {
    answers.drop(id);
    return reply(msg, status, body);
  }
  reply(msg, status, "", "stream");
  answers.sendBody(id, body);
}

/** `more`: "stream" when messages of the answer follow, else the code of a refusal. */
function reply(msg: Msg, status: number, data: Uint8Array | string, more?: string): void {
  const h = headers();
  h.set(HEADER.status, String(status));
  if (more === "stream") h.set(HEADER.kind, "stream");
  else if (more) h.set(HEADER.error, more);
  msg.respond(data, { headers: h });
}

function refuse(msg: Msg, status: number, code: string, message: string): void {
  reply(msg, status, JSON.stringify({ code, message }), code);
}
