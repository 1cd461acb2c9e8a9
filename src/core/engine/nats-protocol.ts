// What a node and a hub say to each other over NATS (docs/guide/nats.md): the subjects,
// all under `docklens.`, and the decoding of every message either side receives. Anything a
// NATS client can publish comes through here first: not JSON, too big, a wrong type or an
// unknown field is an error naming what is wrong, and nothing else happens.
import { z } from "zod/mini";
import { MAX_NAME_LENGTH, NAME_PATTERN } from "../names.ts";

/** A node's name: a name without dots, so that it is one token of a subject and `<node>.<cluster>` parses. */
export const NODE_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/;

/** Where hubs ask every node on NATS to answer with its {@link NodeHeartbeat}. */
export const DISCOVER_SUBJECT = "docklens.hub.discover";
/** Where every node's heartbeat comes, for a hub to subscribe to. */
export const HEARTBEATS_SUBJECT = "docklens.node.*.heartbeat";

/**
 * The subjects of node `name`: it takes reads on `read` and credit on `credit.<stream>`, and
 * publishes its heartbeat and the bytes of its answers (`out.<stream>`), so that a NATS user
 * per node may be allowed its own subjects only (examples/nats/nats-server.conf).
 */
export function nodeSubjects(name: string) {
  const prefix = `docklens.node.${name}`;
  return {
    read: `${prefix}.read`,
    heartbeat: `${prefix}.heartbeat`,
    out: (stream: string) => `${prefix}.out.${stream}`,
    credit: (stream: string) => `${prefix}.credit.${stream}`,
    /** Every credit subject, for the node's one subscription. */
    credits: `${prefix}.credit.*`,
  };
}

/** Headers of the messages of an answer. */
export const HEADER = {
  /** The answer's HTTP status (the reply to a read). */
  status: "Docklens-Status",
  /** The error code of a refusal (an error of docklens's, not the engine's). */
  error: "Docklens-Error",
  /** What a message of a stream is: `data`, `end`, `error` or `tick`. */
  kind: "Docklens-Kind",
  /** The number of the message in its stream (from 1), so that a lost one shows. */
  seq: "Docklens-Seq",
} as const;

/** Messages of a stream the hub may receive before it grants more credit. */
export const STREAM_WINDOW = 32;
/**
 * How often each side of an open stream says it is still there (a tick with no data, a grant
 * of no credit); one that hears nothing for {@link SILENCE_LIMIT} ticks ends the stream.
 */
export const TICK_MS = 5000;
export const SILENCE_LIMIT = 3;
/** The largest read a node accepts: reads are a path and a few parameters. */
export const MAX_READ_BYTES = 16 * 1024;
/** Bytes a message of an answer carries at most, below the server's `max_payload`. */
export const MAX_CHUNK_BYTES = 256 * 1024;
/** Stream ids: what `nuid` makes (22 letters and digits), or a test's own. */
const STREAM_ID = /^[A-Za-z0-9]{1,64}$/;

const text = z.string({ error: "expected a string" });
const name = text.check(
  z.maxLength(MAX_NAME_LENGTH, `expected at most ${MAX_NAME_LENGTH} characters`),
  z.regex(NAME_PATTERN, "expected a name"),
);
const streamId = text.check(z.regex(STREAM_ID, "expected a stream id"));
const credit = z
  .int({ error: "expected an integer" })
  .check(z.minimum(0, "expected at least 0"), z.maximum(1024, "expected at most 1024"));
/** Query values as a node takes them (engine-read.ts): texts, a list of texts for a key that repeats. */
const queryValue = text.check(z.maxLength(8192, "expected at most 8192 characters"));
const query = z.record(
  text.check(z.maxLength(64, "expected a parameter name of at most 64 characters")),
  z.union([queryValue, z.array(queryValue).check(z.maxLength(16, "expected at most 16 values"))], {
    error: "expected a string or a list of strings",
  }),
  { error: "expected an object" },
);
const pathRead = z.strictObject(
  {
    cluster: name,
    path: text.check(z.maxLength(1024, "expected a path of at most 1024 characters")),
    query,
    stream: z.optional(z.boolean({ error: "expected true or false" })),
    id: streamId,
    credit,
  },
  { error: "expected an object" },
);
const attachRead = z.strictObject(
  { cluster: name, attach: name, id: streamId, credit },
  { error: "expected an object" },
);
const grant = z.strictObject(
  { credit: z.optional(credit), cancel: z.optional(z.literal(true)) },
  { error: "expected an object" },
);
const heartbeat = z.strictObject(
  {
    name: text.check(z.regex(NODE_NAME_PATTERN, "expected a node name")),
    clusters: z.array(name).check(z.maxLength(10_000, "expected at most 10000 clusters")),
    everyMs: z.int().check(z.minimum(100), z.maximum(3_600_000)),
    stopping: z.optional(z.literal(true)),
  },
  { error: "expected an object" },
);

/** A read a hub sends a node: the engine read, the hub's id for its answer, and its first credit. */
export type NatsRead = z.infer<typeof pathRead> | z.infer<typeof attachRead>;
/** What a hub sends on a stream's credit subject: more credit, or the end of it. */
export type NatsGrant = z.infer<typeof grant>;
/** What a node says of itself, every `everyMs` and when a hub asks. */
export type NodeHeartbeat = z.infer<typeof heartbeat>;

/** A message that decoded, or why it did not. */
export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

/** JSON text of at most `max` bytes, or why not. */
function parseMessage(bytes: Uint8Array, max: number): Decoded<unknown> {
  if (bytes.length > max)
    return { ok: false, error: `message of ${bytes.length} bytes, over ${max}` };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false, error: "message is not JSON text" };
  }
}

function check<T>(schema: z.ZodMiniType<T>, message: Decoded<unknown>): Decoded<T> {
  if (!message.ok) return message;
  const parsed = schema.safeParse(message.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const [issue] = parsed.error.issues;
  const where = issue?.path.length ? issue.path.join(".") : "message";
  const what =
    issue?.code === "unrecognized_keys"
      ? `unknown field ${issue.keys.map((key) => JSON.stringify(key.slice(0, 40))).join(", ")}`
      : (issue?.message ?? "invalid");
  return { ok: false, error: `${where}: ${what}` };
}

/** Decode a read a node received (the `read` subject): an attach when it names one, else a GET. */
export function decodeRead(bytes: Uint8Array): Decoded<NatsRead> {
  const message = parseMessage(bytes, MAX_READ_BYTES);
  const isAttach =
    message.ok &&
    typeof message.value === "object" &&
    message.value !== null &&
    "attach" in message.value;
  return isAttach ? check(attachRead, message) : check(pathRead, message);
}

/** Decode what a node received on a stream's credit subject. */
export function decodeGrant(bytes: Uint8Array): Decoded<NatsGrant> {
  return check(grant, parseMessage(bytes, MAX_READ_BYTES));
}

/** Decode a node's heartbeat, or its answer to a hub's discovery. */
export function decodeHeartbeat(bytes: Uint8Array): Decoded<NodeHeartbeat> {
  return check(heartbeat, parseMessage(bytes, 1 << 20));
}
