// The node side of issue 27: a hub's core runs every operation itself and sends the engine reads
// it makes to the node that holds the cluster. The node answers only the reads docklens's own
// core makes (READS below, each with its operation's checks), builds every engine path from the
// values it checked, and hides secrets before a body leaves it. Both transports (HTTP and NATS)
// call answerEngineRead; nothing else at a node reaches its engines for a hub.
import { DISK_USAGE_TYPES } from "../clusters/disk-usage.ts";
import { PS_ARGS } from "../containers/processes.ts";
import { printsEnvironment } from "../containers/ps-args.ts";
import { redactEnv, redactText } from "../containers/secrets.ts";
import { callEngine } from "../engine/engine.ts";
import { openEngineStream } from "../engine/engine-stream.ts";
import { parseFilters, type FilterKind } from "../engine/filters.ts";
import { resolveCluster, type CoreOptions } from "../engine/fleet.ts";
import { DocklensError, invalidInput, isDocklensError } from "../errors.ts";
import { checkImageReference, checkName } from "../names.ts";
import { nodeEvents } from "./node-events.ts";
import { answerFromMirror } from "./mirror-reads.ts";

/**
 * An engine read a hub sends a node: `GET path?query` of the engine API (`path` as the core
 * builds it, names percent-encoded), as a stream or not; or the read-only attach of a container.
 */
export type NodeRead =
  | {
      cluster: string;
      path: string;
      query: Readonly<Record<string, string | readonly string[]>>;
      stream?: boolean;
    }
  | { cluster: string; attach: string };

/**
 * What the node answers: the engine's JSON body, its stream's bytes, or the engine's own refusal
 * (its status and body), which the hub's core then words as for an engine of its own.
 */
export type NodeReadAnswer =
  | { kind: "body"; body: unknown }
  | { kind: "stream"; chunks: AsyncGenerator<Buffer> }
  | { kind: "engine-error"; status: number; body: unknown };

/** Options of {@link answerEngineRead}. */
export interface AnswerEngineReadOptions extends CoreOptions {
  /** Let secrets leave the node (ps's `e`, environment values); defaults to the config's. */
  showSecrets?: boolean;
}

/** A check of one query value: the value to send the engine, or a throw. */
type Check = (value: string, key: string, showSecrets: boolean) => string;

interface AllowedRead {
  query: Readonly<Record<string, Check>>;
  /**
   * Read as a stream: `always` (logs, events), or as its `stream` parameter says (stats); no
   * other read may be, and none of these is read whole (a followed log would never end).
   */
  stream?: "always" | "query";
  /** Keys that may repeat (`type` of `/system/df`). */
  lists?: readonly string[];
}

const BOOLEAN: Check = (value, key) =>
  /^(true|false|1|0)$/.test(value) ? value : invalidInput(key, "expected true, false, 1 or 0");
/** A time as the core sends it: Unix seconds, nanoseconds after the point. */
const TIME: Check = (value, key) =>
  /^\d{1,12}(\.\d{1,9})?$/.test(value) ? value : invalidInput(key, "expected Unix seconds");
const TAIL: Check = (value, key) =>
  /^(all|\d{1,9})$/.test(value) ? value : invalidInput(key, "expected all or a number");
const PS: Check = (value, key, showSecrets) => {
  if (!PS_ARGS.test(value)) invalidInput(key, "expected ps options such as -ef");
  if (!showSecrets && printsEnvironment(value))
    invalidInput(key, `${JSON.stringify(value)} would print each process's environment`);
  return value;
};
const DF_TYPE: Check = (value, key) =>
  (DISK_USAGE_TYPES as readonly string[]).includes(value)
    ? value
    : invalidInput(key, `expected ${DISK_USAGE_TYPES.join(", ")}`);

/** Docker's `filters` JSON, each key and value checked as `--filter` is; sent as re-written. */
const filters =
  (kind: FilterKind): Check =>
  (value, key) => {
    let parsed: unknown;
    try {
      parsed = value.length <= 8192 ? JSON.parse(value) : undefined;
    } catch {
      parsed = undefined;
    }
    const entries =
      parsed && typeof parsed === "object" && !Array.isArray(parsed)
        ? Object.entries(parsed).flatMap(([name, values]) =>
            Array.isArray(values) && values.every((item) => typeof item === "string")
              ? values.map((item: string) => `${name}=${item}`)
              : [null],
          )
        : [null];
    if (entries.includes(null)) invalidInput(key, "expected docker's filters JSON");
    return JSON.stringify(parseFilters(kind, entries as string[]) ?? {});
  };

/**
 * The engine reads the core makes (every `engine.get` of src/core/), by path template, with the
 * query keys each takes. `{container}`, `{image}`, `{volume}` and `{network}` are checked names.
 */
export const READS: ReadonlyMap<string, AllowedRead> = new Map<string, AllowedRead>([
  ["/version", { query: {} }],
  ["/info", { query: {} }],
  ["/containers/json", { query: { all: BOOLEAN, size: BOOLEAN, filters: filters("containers") } }],
  ["/containers/{container}/json", { query: {} }],
  ["/containers/{container}/stats", { query: { stream: BOOLEAN }, stream: "query" }],
  ["/containers/{container}/top", { query: { ps_args: PS } }],
  [
    "/containers/{container}/logs",
    {
      query: {
        stdout: BOOLEAN,
        stderr: BOOLEAN,
        timestamps: BOOLEAN,
        follow: BOOLEAN,
        tail: TAIL,
        since: TIME,
        until: TIME,
      },
      stream: "always",
    },
  ],
  ["/images/json", { query: { all: BOOLEAN, filters: filters("images") } }],
  ["/images/{image}/json", { query: {} }],
  ["/volumes", { query: { filters: filters("volumes") } }],
  ["/volumes/{volume}", { query: {} }],
  ["/networks", { query: { filters: filters("networks") } }],
  ["/networks/{network}", { query: {} }],
  [
    "/events",
    { query: { since: TIME, until: TIME, filters: filters("events") }, stream: "always" },
  ],
  ["/system/df", { query: { type: DF_TYPE }, lists: ["type"] }],
]);

/**
 * Answer one engine read of a hub, as the node's own core would make it: the cluster resolved in
 * `options.fleet` (narrowed to the caller's token), the path and every query value checked
 * against {@link READS} (else `READ_NOT_ALLOWED`, `INVALID_NAME` or `INVALID_QUERY`, and no
 * engine call), inspect bodies and processes without secrets unless shown. Reads go through the
 * node's shared reads and stream caps; `/events` is served from the node's event hub (and its
 * backlog), and the container lists and inspects hubs' mirrors read, and `/version`, from what
 * the node already holds (mirror-reads.ts), so many hubs cost the engine what one does. An
 * engine's refusal comes back as its status and body.
 */
export async function answerEngineRead(
  read: NodeRead,
  options: AnswerEngineReadOptions,
): Promise<NodeReadAnswer> {
  const cluster = resolveCluster(read.cluster, options);
  const showSecrets = options.showSecrets ?? options.fleet.config.showSecrets;
  try {
    if ("attach" in read) {
      const id = checkName("container", read.attach);
      const chunks = await openEngineStream(cluster, (engine, s) => engine.attach(id, s), options);
      return { kind: "stream", chunks };
    }
    const { template, path } = checkPath(read.path);
    const allowed = READS.get(template)!;
    const query = checkQuery(template, allowed, read.query, showSecrets);
    const streams =
      allowed.stream === "always" ||
      (allowed.stream === "query" && (query.stream === "true" || query.stream === "1"));
    // Unset, the read streams as its path says (the HTTP route); set, it must say the same.
    if (read.stream !== undefined && read.stream !== streams)
      notAllowed(`${template} ${streams ? "read whole" : "as a stream"}`);
    if (streams) {
      const events = template === "/events" ? await nodeEvents(cluster, options, query) : undefined;
      if (events) return { kind: "stream", chunks: events };
      const chunks = await openEngineStream(
        cluster,
        (engine, signal) =>
          engine.get(path, signal, { query, stream: true }) as Promise<NodeJS.ReadableStream>,
        options,
      );
      return { kind: "stream", chunks };
    }
    const call = () =>
      callEngine(cluster, (engine, signal) => engine.get(path, signal, { query }), {
        ...options,
        read: { kind: "raw", path, query: new URLSearchParams(sorted(query)).toString() },
        ...(template === "/system/df" ? { timeoutMs: cluster.diskUsageTimeoutMs } : {}),
        ...(template.endsWith("/stats") ? { purpose: "sample" as const } : {}),
      });
    const body = await answerFromMirror(cluster, template, path, query, options, call);
    return { kind: "body", body: showSecrets ? body : withoutSecrets(template, body) };
  } catch (error) {
    // The engine's own refusal (a 404 of an unknown container): as it said it, for the hub.
    const cause = isDocklensError(error)
      ? (error.cause as { statusCode?: unknown; json?: unknown } | undefined)
      : undefined;
    if (typeof cause?.statusCode === "number")
      return { kind: "engine-error", status: cause.statusCode, body: cause.json };
    throw error;
  }
}

/** The template of an engine path in {@link READS}, and the path rebuilt of its checked names. */
export function checkPath(path: string): { template: string; path: string } {
  const parts = path.split("/");
  if (parts[0] !== "" || parts.length < 2) notAllowed(shown(path));
  const segments = parts.slice(1).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new DocklensError("INVALID_NAME", `invalid percent-encoding in ${shown(part)}`);
    }
  });
  const [first, second] = segments;
  if (first === "images" && segments.length >= 3 && segments.at(-1) === "json") {
    const image = checkImageReference(segments.slice(1, -1).join("/"));
    return { template: "/images/{image}/json", path: `/images/${image}/json` };
  }
  if (first === "containers" && segments.length === 3 && second !== "json") {
    const template = `/containers/{container}/${segments[2]}`;
    if (!READS.has(template)) notAllowed(shown(path));
    return { template, path: `/containers/${checkName("container", second!)}/${segments[2]}` };
  }
  if ((first === "volumes" || first === "networks") && segments.length === 2) {
    const kind = first === "volumes" ? "volume" : "network";
    return { template: `/${first}/{${kind}}`, path: `/${first}/${checkName(kind, second!)}` };
  }
  const template = `/${segments.join("/")}`;
  if (!READS.has(template) || template.includes("{")) notAllowed(shown(path));
  return { template, path: template };
}

function checkQuery(
  template: string,
  allowed: AllowedRead,
  query: Readonly<Record<string, string | readonly string[]>>,
  showSecrets: boolean,
): Record<string, string | string[]> {
  const checked: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    const check = Object.hasOwn(allowed.query, key) ? allowed.query[key] : undefined;
    if (!check) notAllowed(`${template} with the query parameter ${shown(key)}`);
    const values = typeof value === "string" ? [value] : [...value];
    if (!values.length || (values.length > 1 && !allowed.lists?.includes(key)))
      invalidInput(key, "expected one value");
    const sent = values.map((item) => check(String(item), key, showSecrets));
    checked[key] = allowed.lists?.includes(key) ? sent : sent[0]!;
  }
  return checked;
}

/** A body as it may leave the node: environment values and ps's words that look secret hidden. */
function withoutSecrets(template: string, body: unknown): unknown {
  const value = body as {
    Config?: { Env?: unknown };
    Processes?: unknown;
  } | null;
  if (template === "/containers/{container}/json" && Array.isArray(value?.Config?.Env))
    return { ...value, Config: { ...value.Config, Env: redactEnv(value.Config.Env as string[]) } };
  if (template === "/containers/{container}/top" && Array.isArray(value?.Processes))
    return {
      ...value,
      Processes: (value.Processes as unknown[]).map((row) =>
        Array.isArray(row)
          ? (row as unknown[]).map((cell) => (typeof cell === "string" ? redactText(cell) : cell))
          : row,
      ),
    };
  return body;
}

function sorted(query: Record<string, string | string[]>): Array<[string, string]> {
  return Object.keys(query)
    .sort()
    .flatMap((key) => [query[key]!].flat().map((value): [string, string] => [key, value]));
}

function notAllowed(what: string): never {
  throw new DocklensError(
    "READ_NOT_ALLOWED",
    `a node answers only the engine reads docklens makes; not ${what}`,
  );
}

function shown(text: string): string {
  return JSON.stringify(text.slice(0, 80));
}
