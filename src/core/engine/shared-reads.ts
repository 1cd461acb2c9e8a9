// What a shared engine read is keyed by, and the guard on the bodies it shares. Identical reads
// of a cluster share one engine call, and with `cacheTtlMs` a recent body: a key that does not
// say everything a read asks for would serve one query's body to another.

/**
 * Docker's filters of a list, key to values, as filters.ts's `EngineFilters` holds them (spelt
 * out here: filters.ts imports the engine's call, which imports this file).
 */
type Filters = Readonly<Record<string, readonly string[]>>;

/**
 * What a shared read asks an engine for, whole. Each kind is read in one place only, which
 * shapes its body one way: `container`, `image`, `volume` and `network` are an inspect body by
 * the checked name or id; `containers` (docklens's list and its running part), `images`,
 * `volumes` and `networks` a list with docker's filters; `version` the engine's `/version`;
 * `info` its `/info` with the number of volumes; `disk-usage` its `/system/df` of the kinds
 * named (all of them when none are); a `containers` read with `size` the list with each
 * container's sizes (`SizeRw`, `SizeRootFs`: the engine computes them, slowly); `across` the
 * body of a read over the clusters of these ids, put together from each one's (a fleet's, where
 * the others are a cluster's).
 */
export type EngineRead =
  | { kind: "container" | "image" | "volume" | "network"; name: string }
  | { kind: "containers" | "images" | "volumes" | "networks"; filters: Filters | undefined }
  | { kind: "containers"; filters: Filters | undefined; size: boolean }
  | { kind: "images"; filters: Filters | undefined; all: boolean }
  | { kind: "version" | "info" }
  | { kind: "disk-usage"; types: readonly string[] | undefined }
  | { kind: "across"; read: EngineRead; clusters: readonly number[] }
  // An engine read a node answers for a hub (core/node/engine-read.ts): path and sorted query.
  | { kind: "raw"; path: string; query: string };

declare const READ_KEY: unique symbol;

/** A key {@link readKey} built: the only key the engine's shared reads take. */
export type ReadKey = string & { readonly [READ_KEY]: true };

/**
 * The key of a shared read: equal for reads that ask for the same thing, distinct otherwise.
 * Filters are compared as the engine reads them, as sets: the order of keys and of values, and
 * a value given twice, make no other query; no filters and empty filters are the same list.
 *
 * @example
 * readKey({ kind: "containers", filters: { status: ["running"] } });
 * // '["containers",{"status":["running"]}]'
 */
export function readKey(read: EngineRead): ReadKey {
  switch (read.kind) {
    case "container":
    case "image":
    case "volume":
    case "network":
      return JSON.stringify([read.kind, read.name]) as ReadKey;
    case "containers":
    case "images":
    case "volumes":
    case "networks":
      // A list with sizes (`size=true`) is another, slower read; without, the key is as it was.
      return JSON.stringify([
        read.kind,
        sameFilters(read.filters),
        ...("size" in read && read.size ? ["size"] : []),
        // Intermediate images too (`all=true`): another list.
        ...("all" in read && read.all ? ["all"] : []),
      ]) as ReadKey;
    case "version":
    case "info":
      return JSON.stringify([read.kind]) as ReadKey;
    case "disk-usage":
      return JSON.stringify([read.kind, [...new Set(read.types ?? [])].sort()]) as ReadKey;
    case "across":
      return JSON.stringify([read.kind, readKey(read.read), read.clusters]) as ReadKey;
    case "raw":
      return JSON.stringify([read.kind, read.path, read.query]) as ReadKey;
  }
}

/** `filters` in one spelling: keys and their values sorted, each value once. */
function sameFilters(filters: Filters | undefined): Filters {
  return Object.fromEntries(
    Object.keys(filters ?? {})
      .sort()
      .map((key) => [key, [...new Set(filters![key])].sort()]),
  );
}

/**
 * Set to `1` (the tests set it), every body a shared read returns is frozen, deeply: code that
 * changes one then throws at once, where it would otherwise hand its change to every other
 * caller of the read, and to the server's serialise-once cache, which would send what it
 * serialised before the change. Read once: a run does not change its mind.
 */
const FREEZE = process.env.DOCKLENS_FREEZE_SHARED_READS === "1";

/** `body` as a shared read hands it out: frozen when {@link FREEZE} says so, else as it is. */
export function shareBody<T>(body: T): T {
  if (FREEZE) deepFreeze(body);
  return body;
}

function deepFreeze(value: unknown): void {
  // Byte views cannot be frozen (nor be JSON bodies); frozen objects were seen already.
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return;
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
