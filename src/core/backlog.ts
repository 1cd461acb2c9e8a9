import { DocklensError } from "./errors.ts";

/** What one slow reader may leave unread of a stream: at most 16 MiB, of lines of any count below `items`. */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** The bounds of a {@link Backlog}. */
export interface BacklogBounds {
  /** Items held at most. */
  items: number;
  /** Their sizes added up, at most (default {@link MAX_BACKLOG_BYTES}). */
  bytes?: number;
}

/**
 * The items a reader has not taken yet, bounded both in count and in bytes: a count alone lets a
 * reader that does not read hold thousands of megabyte lines. `push` refuses an item that would
 * pass either bound (and keeps nothing of it): the stream then ends for that reader with
 * {@link Backlog.tooSlow}, as docs/http-interface.md ("Streams") says of a client that falls
 * behind. `sizeOf` is what an item costs, in bytes (its text's length, say).
 * @example
 * ```ts
 * const held = new Backlog<MergedLogLine>({ items: 10_000 }, (line) => line.text.length);
 * if (!held.push(line)) throw held.tooSlow("follow again with since set to the last line's time");
 * ```
 */
export class Backlog<T> {
  readonly #items: T[] = [];
  readonly #sizes: number[] = [];
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(
    readonly bounds: BacklogBounds,
    private readonly sizeOf: (item: T) => number,
  ) {
    this.#maxBytes = bounds.bytes ?? MAX_BACKLOG_BYTES;
  }

  /** Items held. */
  get length(): number {
    return this.#items.length;
  }

  /** Their sizes added up. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Hold `item` at the end; `false`, and nothing held, when that would pass a bound. */
  push(item: T): boolean {
    const size = this.sizeOf(item);
    if (this.#items.length >= this.bounds.items || this.#bytes + size > this.#maxBytes)
      return false;
    this.#items.push(item);
    this.#sizes.push(size);
    this.#bytes += size;
    return true;
  }

  /** The first item held, taken out; `undefined` when none is. */
  shift(): T | undefined {
    if (!this.#items.length) return undefined;
    this.#bytes -= this.#sizes.shift()!;
    return this.#items.shift();
  }

  /** The `CLIENT_TOO_SLOW` of a reader that let this fill up, naming both bounds, and what to do. */
  tooSlow(hint: string): DocklensError {
    const mib = this.#maxBytes / (1024 * 1024);
    const bytes = Number.isInteger(mib) ? `${mib} MiB` : `${this.#maxBytes} bytes`;
    return new DocklensError(
      "CLIENT_TOO_SLOW",
      `this client fell ${this.bounds.items} items or ${bytes} behind; ${hint}`,
    );
  }
}
