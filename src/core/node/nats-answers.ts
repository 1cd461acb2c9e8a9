// The answers a node over NATS has in flight (nats-node.ts): each a run of messages to the hub's
// subject for it, numbered so that a lost one shows, no faster than the hub grants credit for,
// ended by the hub's cancel, the hub's silence, the source's end or error, or the link's loss.
import { Readable } from "node:stream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import { HEADER, SILENCE_LIMIT, TICK_MS } from "../engine/nats-protocol.ts";
import { isDocklensError } from "../errors.ts";

/** One answer in flight: its bytes wait in `queue` until the hub grants credit. */
export interface Answer {
  /** Aborted when the answer ends: the read it answers stops. */
  controller: AbortController;
  credit: number;
  seq: number;
  queue: Uint8Array[];
  source?: Readable;
  ended: boolean;
  heardAt: number;
  out: string;
}

/** The answers of one node, by the read's id. */
export class NodeAnswers {
  readonly #answers = new Map<string, Answer>();

  /** `chunkBytes`: the largest message body the server takes now. */
  constructor(
    private readonly nats: NatsConnection,
    readonly chunkBytes: () => number,
  ) {}

  get size(): number {
    return this.#answers.size;
  }

  has(id: string): boolean {
    return this.#answers.has(id);
  }

  /** A new answer to read `id`, sent to `out` with `credit` messages granted. */
  open(id: string, credit: number, out: string): Answer {
    const answer: Answer = {
      controller: new AbortController(),
      credit,
      seq: 0,
      queue: [],
      ended: false,
      heardAt: Date.now(),
      out,
    };
    this.#answers.set(id, answer);
    return answer;
  }

  /** Forget an answer that was sent whole in the reply itself, or refused. */
  drop(id: string): void {
    this.#answers.delete(id);
  }

  /** End an answer: its read stops, its source is let go. */
  finish(id: string): void {
    const answer = this.#answers.get(id);
    if (!answer) return;
    this.#answers.delete(id);
    answer.controller.abort();
    answer.source?.destroy();
  }

  /** End every answer (the link is lost, or the node stops). */
  finishAll(): void {
    for (const id of [...this.#answers.keys()]) this.finish(id);
  }

  /** A body too large for one message, sent in chunks as credit comes. */
  sendBody(id: string, body: Uint8Array): void {
    const answer = this.#answers.get(id)!;
    const size = this.chunkBytes();
    for (let at = 0; at < body.length; at += size) answer.queue.push(body.subarray(at, at + size));
    answer.ended = true;
    this.#flush(id, answer);
  }

  /** A stream's chunks, read from `source` no faster than the hub's credit lets them go. */
  pump(id: string, source: Readable): void {
    const answer = this.#answers.get(id)!;
    answer.source = source;
    source.on("data", (chunk: Buffer) => {
      const size = this.chunkBytes();
      for (let at = 0; at < chunk.length; at += size)
        answer.queue.push(chunk.subarray(at, at + size));
      // Out of credit: stop reading the engine until the hub has taken what it was sent.
      if (answer.queue.length > answer.credit) source.pause();
      this.#flush(id, answer);
    });
    source.on("end", () => {
      answer.ended = true;
      this.#flush(id, answer);
    });
    source.on("error", (error: NodeJS.ErrnoException) => {
      if (!this.#answers.has(id)) return;
      const said = isDocklensError(error)
        ? { code: error.code, message: error.message }
        : {
            code: "ENGINE_ERROR",
            message: `the engine's stream failed (${error.code ?? "error"})`,
          };
      this.#send(answer, "error", JSON.stringify(said));
      this.finish(id);
    });
  }

  /** The hub's word on an answer: more credit, or a cancel. */
  grant(id: string, grant: { credit?: number; cancel?: boolean }): void {
    const answer = this.#answers.get(id);
    if (!answer) return; // an ended stream: nothing to change
    answer.heardAt = Date.now();
    if (grant.cancel) return this.finish(id);
    answer.credit += grant.credit ?? 0;
    this.#flush(id, answer);
  }

  /**
   * Each open answer says it is alive, with the number of its last message; one whose hub has
   * said nothing for a while is ended (the hub left without a word).
   */
  tick(now = Date.now()): void {
    for (const [id, answer] of [...this.#answers]) {
      if (now - answer.heardAt > SILENCE_LIMIT * TICK_MS) this.finish(id);
      else if (answer.source || answer.queue.length) this.#send(answer, "tick", "", answer.seq);
    }
  }

  #send(answer: Answer, kind: string, data?: Uint8Array | string, seq = ++answer.seq): void {
    const h = headers();
    h.set(HEADER.kind, kind);
    h.set(HEADER.seq, String(seq));
    this.nats.publish(answer.out, data ?? "", { headers: h });
  }

  #flush(id: string, answer: Answer): void {
    while (answer.queue.length && answer.credit > 0) {
      this.#send(answer, "data", answer.queue.shift());
      answer.credit--;
    }
    if (answer.queue.length) return;
    if (answer.ended) {
      this.#send(answer, "end");
      this.finish(id);
    } else answer.source?.resume();
  }
}
