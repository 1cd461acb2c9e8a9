import { StringDecoder } from "node:string_decoder";

/**
 * One line a container wrote
 * (docs/http-interface.md, "GET /detail/:cluster/container/:containerName/logs").
 */
export interface OutputLine {
  stream: "stdout" | "stderr";
  /** RFC 3339 time the engine stamped, when timestamps were asked for; else `null`. */
  time: string | null;
  text: string;
}

/** Options of {@link createOutputDecoder}. */
export interface OutputDecoderOptions {
  /** The engine multiplexes stdout and stderr with 8-byte frame headers unless the container has a TTY. */
  multiplexed: boolean;
  /** Each line starts with the engine's RFC 3339 timestamp and a space. */
  timestamps: boolean;
  /** The longest line, in characters (beside its timestamp); default {@link MAX_LINE_LENGTH}. */
  maxLineLength?: number;
}

/** Turns the engine's output bytes into lines; `push` chunks as they come, `end` once. */
export interface OutputDecoder {
  push(chunk: Buffer): OutputLine[];
  end(): OutputLine[];
}

const HEADER = 8;
/**
 * The longest line docklens joins, in characters: a longer one comes as several lines of this
 * length, each with the line's time. The engine cuts lines at 16 KiB and docklens joins the
 * pieces; without a bound, a container writing without a newline would grow one string for as
 * long as it writes, for each of its followers.
 */
export const MAX_LINE_LENGTH = 1024 * 1024;
const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) ?/;

/**
 * Decode the engine's container output. A frame may be split across chunks and a chunk may hold
 * many frames; a line may be split across frames, and a UTF-8 character across chunks. TTY output
 * (`\r\n` line ends) comes unframed and is all stdout. A line longer than `maxLineLength` comes
 * in pieces of that length.
 */
export function createOutputDecoder(options: OutputDecoderOptions): OutputDecoder {
  const maxLength = options.maxLineLength ?? MAX_LINE_LENGTH;
  let pending: Buffer = Buffer.alloc(0);
  // `open`: the last frame ended inside a line, which the engine cut at 16 KiB.
  const streams = {
    stdout: { decoder: new StringDecoder("utf8"), partial: "", open: false },
    stderr: { decoder: new StringDecoder("utf8"), partial: "", open: false },
  };

  /** `raw` as lines of at most `maxLength` characters (beside the timestamp each one repeats). */
  const cut = (raw: string): string[] => {
    const pieces: string[] = [];
    for (;;) {
      const stamp = options.timestamps ? (TIMESTAMP.exec(raw)?.[0] ?? "") : "";
      if (raw.length - stamp.length <= maxLength) return [...pieces, raw];
      // Never between the two halves of a surrogate pair.
      const high = /[\uD800-\uDBFF]/.test(raw[stamp.length + maxLength - 1]!);
      const end = stamp.length + maxLength - (high ? 1 : 0);
      pieces.push(raw.slice(0, end));
      raw = stamp + raw.slice(end);
    }
  };

  const toLines = (name: OutputLine["stream"], text: string, flush: boolean): OutputLine[] => {
    const state = streams[name];
    const parts = (state.partial + text).split("\n").flatMap(cut);
    state.partial = parts.pop()!;
    if (flush && state.partial) parts.push(state.partial);
    if (flush) state.partial = "";
    return parts.map((raw) => toLine(name, raw.replace(/\r$/, "")));
  };

  const toLine = (stream: OutputLine["stream"], raw: string): OutputLine => {
    const match = options.timestamps ? TIMESTAMP.exec(raw) : null;
    return match
      ? { stream, time: match[1]!, text: raw.slice(match[0].length) }
      : { stream, time: null, text: raw };
  };

  return {
    push(chunk) {
      if (!options.multiplexed)
        return toLines("stdout", streams.stdout.decoder.write(chunk), false);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const lines: OutputLine[] = [];
      while (pending.length >= HEADER) {
        const size = pending.readUInt32BE(4);
        if (pending.length < HEADER + size) break;
        const name = pending[0] === 2 ? "stderr" : "stdout";
        const state = streams[name];
        let payload = pending.subarray(HEADER, HEADER + size);
        // Each 16 KiB piece of a long line carries its own timestamp: the line's first one stays.
        // Cut as bytes, before decoding: a piece may end inside a UTF-8 character.
        const stamp =
          options.timestamps && state.open
            ? TIMESTAMP.exec(payload.subarray(0, 48).toString("latin1"))
            : null;
        if (stamp) payload = payload.subarray(stamp[0].length);
        if (size) state.open = pending[HEADER + size - 1] !== 0x0a;
        lines.push(...toLines(name, state.decoder.write(payload), false));
        pending = pending.subarray(HEADER + size);
      }
      return lines;
    },
    end() {
      return (["stdout", "stderr"] as const).flatMap((name) =>
        toLines(name, streams[name].decoder.end(), true),
      );
    },
  };
}

/** Decode a whole stream of chunks into lines, as they come. */
export async function* decodeOutput(
  chunks: AsyncIterable<Buffer>,
  options: OutputDecoderOptions,
): AsyncGenerator<OutputLine> {
  const decoder = createOutputDecoder(options);
  for await (const chunk of chunks) yield* decoder.push(chunk);
  yield* decoder.end();
}
