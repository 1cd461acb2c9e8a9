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
  SILENCE_LIMIT,
  TICK_MS,
  decodeGrant,
  decodeRead,
  nodeSubjects,
} from "../engine/nats-protocol.ts";

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

/** One answer in flight: its bytes wait in `queue` until the hub grants credit. */
interface Answer {
  controller: AbortController;
  credit: number;
  seq: number;
  queue: Uint8Array[];
  source?: Readable;
  ended: boolean;
  heardAt: number;
  out: string;
}

/** Serve reads over NATS as node `options.name` (docs/guide/nats.md). */
export function serveNodeOverNats(options: ServeNodeOptions): NatsNode {
  const { nats, name } = options;
  const subjects = nodeSubjects(name);
  const everyMs = options.heartbeatMs ?? 5000;
  const answers = new Map<string, Answer>();
  const chunkBytes = () => Math.min(MAX_CHUNK_BYTES, (nats.info?.max_payload ?? 1 << 20) - 1024);
  const hello = (stopping = false) =>
    JSON.stringify({
      name,
      clusters: options.clusters(),
      everyMs,
      ...(stopping ? { stopping } : {}),
    });

  const send = (answer: Answer, kind: string, data?: Uint8Array | string, seq = ++answer.seq) => {
    const h = headers();
    h.set(HEADER.kind, kind);
    h.set(HEADER.seq, String(seq));
    nats.publish(answer.out, data ?? "", { headers: h });
  };
  const finish = (id: string, answer: Answer) => {
    answers.delete(id);
    answer.controller.abort();
    answer.source?.destroy();
  };
  const flush = (id: string, answer: Answer) => {
    while (answer.queue.length && answer.credit > 0) {
      send(answer, "data", answer.queue.shift());
      answer.credit--;
    }
    if (answer.queue.length) return;
    if (answer.ended) {
      send(answer, "end");
      finish(id, answer);
    } else answer.source?.resume();
  };
  const pump = (id: string, answer: Answer, source: Readable) => {
    answer.source = source;
    source.on("data", (chunk: Buffer) => {
      const size = chunkBytes();
      for (let at = 0; at < chunk.length; at += size)
        answer.queue.push(chunk.subarray(at, at + size));
      // Out of credit: stop reading the engine until the hub has taken what it was sent.
      if (answer.queue.length > answer.credit) source.pause();
      flush(id, answer);
    });
    source.on("end", () => {
      answer.ended = true;
      flush(id, answer);
    });
    source.on("error", (error: NodeJS.ErrnoException) => {
      if (!answers.has(id)) return;
      const said = isDocklensError(error)
        ? { code: error.code, message: error.message }
        : {
            code: "ENGINE_ERROR",
            message: `the engine's stream failed (${error.code ?? "error"})`,
          };
      send(answer, "error", JSON.stringify(said));
      finish(id, answer);
    });
  };

  /** `more`: "stream" when messages of the answer follow, else the code of a refusal. */
  const reply = (msg: Msg, status: number, data: Uint8Array | string, more?: string) => {
    const h = headers();
    h.set(HEADER.status, String(status));
    if (more === "stream") h.set(HEADER.kind, "stream");
    else if (more) h.set(HEADER.error, more);
    msg.respond(data, { headers: h });
  };
  const refuse = (msg: Msg, status: number, code: string, message: string) =>
    reply(msg, status, JSON.stringify({ code, message }), code);

  async function onRead(msg: Msg): Promise<void> {
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
    const answer: Answer = {
      controller: new AbortController(),
      credit,
      seq: 0,
      queue: [],
      ended: false,
      heardAt: Date.now(),
      out: subjects.out(id),
    };
    answers.set(id, answer);
    let result: NodeReadAnswer;
    try {
      result = await options.answer(read, answer.controller.signal);
    } catch (error) {
      answers.delete(id);
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
      return pump(id, answer, Readable.from(result.chunks, { objectMode: false }));
    }
    const status = result.kind === "body" ? 200 : result.status;
    const body = new TextEncoder().encode(toJsonText(result.body ?? null));
    if (body.length <= chunkBytes()) {
      answers.delete(id);
      return reply(msg, status, body);
    }
    reply(msg, status, "", "stream");
    for (let at = 0; at < body.length; at += chunkBytes())
      answer.queue.push(body.subarray(at, at + chunkBytes()));
    answer.ended = true;
    flush(id, answer);
  }

  function onGrant(msg: Msg): void {
    const id = msg.subject.slice(msg.subject.lastIndexOf(".") + 1);
    const answer = answers.get(id);
    const decoded = decodeGrant(msg.data);
    if (!answer || !decoded.ok) return; // an unknown or ended stream, or noise: nothing to change
    answer.heardAt = Date.now();
    if (decoded.value.cancel) return finish(id, answer);
    answer.credit += decoded.value.credit ?? 0;
    flush(id, answer);
  }

  const subscriptions: Subscription[] = [
    nats.subscribe(subjects.read, { callback: (_, msg) => void onRead(msg) }),
    nats.subscribe(subjects.credits, { callback: (_, msg) => onGrant(msg) }),
    nats.subscribe(DISCOVER_SUBJECT, { callback: (_, msg) => void msg.respond(hello()) }),
  ];
  const beat = () => nats.publish(subjects.heartbeat, hello());
  beat();
  const heartbeat = setInterval(beat, everyMs);
  // Each open answer says it is alive, with the number of its last message so a lost one shows;
  // one whose hub has said nothing for a while is ended (the hub left without a word).
  const ticks = setInterval(() => {
    for (const [id, answer] of answers) {
      if (Date.now() - answer.heardAt > SILENCE_LIMIT * TICK_MS) finish(id, answer);
      else if (answer.source || answer.queue.length) send(answer, "tick", "", answer.seq);
    }
  }, TICK_MS);
  // A broken link ends every answer: the hub's side ends them too, and says so. A mended one is
  // announced at once: hubs that asked who is there while it was away hear it now, not a beat later.
  void (async () => {
    for await (const status of nats.status())
      if (status.type === "disconnect") for (const [id, answer] of answers) finish(id, answer);
      else if (status.type === "reconnect") beat();
  })();

  return {
    get answering() {
      return answers.size;
    },
    async close() {
      clearInterval(heartbeat);
      clearInterval(ticks);
      for (const [id, answer] of answers) finish(id, answer);
      if (nats.isClosed()) return;
      nats.publish(subjects.heartbeat, hello(true));
      for (const subscription of subscriptions) subscription.unsubscribe();
      await nats.flush().catch(() => {});
    },
  };
}
