// Content codings of response bodies: which one a request's Accept-Encoding asks for, and
// compressing a body in it with Node's zlib, off the event loop (docs/http-interface.md,
// "Compression").
import {
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  type BrotliOptions,
  type ZlibOptions,
} from "node:zlib";

/** The content codings docklens compresses in, best first: brotli makes the smaller bodies. */
const CODINGS = ["br", "gzip"] as const;
/** A content coding docklens sends a body in. */
export type Coding = (typeof CODINGS)[number];

/** Below this many bytes a body goes as it is: the headers and a round trip cost more than it saves. */
export const MIN_COMPRESSED_BYTES = 1024;

/** What a request's Accept-Encoding allows. */
export interface Negotiated {
  /** The coding to compress in, or none: the client asked for none that docklens has. */
  coding: Coding | undefined;
  /** Whether the client takes a body as it is; it refuses one only with `identity;q=0` or `*;q=0`. */
  identity: boolean;
}

const NONE: Negotiated = { coding: undefined, identity: true };

/**
 * Read an Accept-Encoding header (RFC 9110, 12.5.3): codings are case-insensitive, each with a
 * weight `q` from 0 to 1 (1 when absent, 0 meaning "not acceptable"), `*` standing for every
 * coding not named, `x-gzip` for `gzip`. The coding is the acceptable one of the highest weight,
 * brotli on a tie; a body as it is (identity) wins only when the client weighs it above every
 * coding. No header, or an empty one, asks for no coding. An entry that cannot be read counts
 * for nothing.
 */
export function negotiate(header: string | undefined): Negotiated {
  if (!header?.trim()) return NONE;
  const weights = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name = "", ...params] = entry.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((param) => /^q\s*=/.test(param));
    const weight = q === undefined ? 1 : weightOf(q.replace(/^q\s*=\s*/, ""));
    if (!/^[\w!#$%&'*+.^`|~-]+$/.test(name) || weight === undefined) continue;
    const coding = name === "x-gzip" ? "gzip" : name;
    // A coding named twice keeps its highest weight: a client never means to refuse what it also asked for.
    weights.set(coding, Math.max(weight, weights.get(coding) ?? 0));
  }
  const any = weights.get("*");
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of CODINGS) {
    const weight = weights.get(coding) ?? any ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  // Identity unnamed, and not refused by `*`, is acceptable but below any coding the client named.
  const identity = weights.get("identity") ?? any;
  if (identity !== undefined && identity > bestWeight) best = undefined;
  return { coding: best, identity: identity === undefined || identity > 0 };
}

/** A weight as RFC 9110 writes it: 0 to 1, at most three decimals; anything else is unreadable. */
function weightOf(text: string): number | undefined {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : undefined;
}

/**
 * Levels for throughput, measured on the bench engine's list of 300 containers (197 KB) and on
 * /openapi.json (66 KB). gzip 6, zlib's default, costs about 0.9 and 0.4 ms there, under half of
 * what serialising the list costs, and makes bodies 4 and 20% smaller than level 1; levels 4 and
 * 5 save little time on lists. Brotli 4 matches gzip 6's size in about the same time or less;
 * brotli 5 costs nearly twice that for a few percent. A body is compressed once however many
 * requests share it, so per request the cost is a fraction of that.
 */
const GZIP: ZlibOptions = { level: 6 };
const brotliOptions = (size: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    // Lets brotli size its window and buffers for this body rather than for the largest.
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/** `bytes` compressed in `coding`, in Node's thread pool: a large body never blocks the event loop. */
export function compress(bytes: Buffer, coding: Coding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === "br") brotliCompress(bytes, brotliOptions(bytes.length), done);
    else gzip(bytes, GZIP, done);
  });
}

/**
 * A compressing stream in `coding` for a body that is written a line at a time, and how to push
 * what was written so far to the client (a sync flush): each line reaches it when written.
 */
export function compressingStream(coding: Coding) {
  if (coding === "br") {
    const stream = createBrotliCompress(brotliOptions(0));
    return { stream, flush: () => stream.flush(constants.BROTLI_OPERATION_FLUSH) };
  }
  const stream = createGzip(GZIP);
  return { stream, flush: () => stream.flush(constants.Z_SYNC_FLUSH) };
}
