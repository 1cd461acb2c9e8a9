import { DocklensError } from "./errors.ts";

/** What one slow reader may leave unread of a stream, in bytes, unless told otherwise: 16 MiB. */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** The bounds of a {@link Backlog}. */
export interface BacklogBounds {
  /** Items held at most; default no bound but the bytes'. */
  items?: number;
  /** Their sizes added up, at most; default {@link MAX_BACKLOG_BYTES}. */
  bytes?: number;
}

/**
 * The count of what a reader has not taken yet, bounded both in items and in bytes: a count of
 * items alone lets a reader that does not read hold thousands of megabyte lines. It holds no
 * items itself, so that it fits whatever holds them (a queue, a reorder window and a queue, one
 * queue per reader of a shared stream): `add` the size of each item held, `remove` it when the
 * reader takes the item. `add` refuses an item that would pass either bound: the stream then
 * ends for that reader with {@link Backlog.tooSlow}, as docs/http-interface.md ("Streams") says
 * of a client that falls behind.
 * @example
 * ```ts
 * const backlog = new Backlog({ items: 10_000 });
 * if (!backlog.add(line.text.length)) throw backlog.tooSlow("follow again with since set");
 * queue.push(line);
 * // … the reader takes it:
 * backlog.remove(queue.shift()!.text.length);
 * ```
 */
export class Backlog {
  readonly #maxItems: number;
  readonly #maxBytes: number;
  #items = 0;
  #bytes = 0;

  constructor(bounds: BacklogBounds) {
    this.#maxItems = bounds.items ?? Infinity;
    this.#maxBytes = bounds.bytes ?? MAX_BACKLOG_BYTES;
  }

  /** Items held. */
  get items(): number {
    return this.#items;
  }

  /** Their sizes added up. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Count one more item of `size` bytes; `false`, and nothing counted, past either bound. */
  add(size: number): boolean {
    if (this.#items >= this.#maxItems || this.#bytes + size > this.#maxBytes) return false;
    this.#items++;
    this.#bytes += size;
    return true;
  }

  /** Count out an item of `size` bytes that the reader took. */
  remove(size: number): void {
    this.#items--;
    this.#bytes -= size;
  }

  /** The `CLIENT_TOO_SLOW` of a reader that let this fill up, naming both bounds, and what to do. */
  tooSlow(hint: string): DocklensError {
    const mib = this.#maxBytes / (1024 * 1024);
    const bytes = Number.isInteger(mib) ? `${mib} MiB` : `${this.#maxBytes} bytes`;
    const items = Number.isFinite(this.#maxItems) ? `${this.#maxItems} items or ` : "";
    return new DocklensError(
      "CLIENT_TOO_SLOW",
      `this client fell ${items}${bytes} behind; ${hint}`,
    );
  }
}
