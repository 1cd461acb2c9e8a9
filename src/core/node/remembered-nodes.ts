// What a hub remembers of its nodes between runs and processes (D22), in the data directory's
// nodes.json: the id of each node cluster, so that `docklens containers 3` reaches the same
// engine whichever node answers first, and the clusters each node offered when last reached, so
// that a node down now keeps its clusters listed with its error rather than vanish.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file, in the data directory. */
const FILE = "nodes.json";

/** A node as it was when last reached. */
export interface RememberedNode {
  /** How it was reached: its URL, or the NATS servers the hub dialled. */
  via: string;
  /** Found over NATS (an HTTP node is listed while the config names it). */
  nats: boolean;
  /** The names of its clusters there. */
  clusters: string[];
  /** When it was last reached (ISO 8601). */
  seen: string;
}

interface Stored {
  ids: Record<string, number>;
  nodes: Record<string, RememberedNode>;
}

/** The ids of node clusters and what each node offered, kept in a file of the data directory. */
export interface RememberedNodes {
  /**
   * The id of node cluster (or never-reached node) `name`: the one remembered, unless a cluster
   * of `taken` holds it now, else a new one above every id remembered or taken, remembered.
   */
  idOf(name: string, taken: readonly number[]): number;
  /** What `name` offered when last reached. */
  node(name: string): RememberedNode | undefined;
  /** Every node remembered, by name. */
  nodes(): Array<[string, RememberedNode]>;
  /** Remember what `name` offers now. */
  remember(name: string, node: RememberedNode): void;
}

/**
 * What the hub remembers in `dir` (see {@link RememberedNodes}). Each change is written at once,
 * merged with what another process wrote meanwhile (its ids win: they may be in use already).
 * A file that cannot be read counts as empty; one that cannot be written leaves the memory to
 * this process, and `warn` says so once.
 */
export function openRememberedNodes(dir: string, warn: (message: string) => void): RememberedNodes {
  const path = join(dir, FILE);
  let stored = read(path);
  let warned = false;
  const write = (change: (into: Stored) => void) => {
    // Another process's ids first, then this change over them.
    const next = read(path);
    next.ids = { ...stored.ids, ...next.ids };
    next.nodes = { ...stored.nodes, ...next.nodes };
    change(next);
    stored = next;
    try {
      mkdirSync(dir, { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`);
      renameSync(temp, path);
    } catch (error) {
      if (!warned)
        warn(`node cluster ids are not remembered in ${dir}: ${(error as Error).message}`);
      warned = true;
    }
  };
  return {
    idOf(name, taken) {
      const remembered = read(path).ids[name] ?? stored.ids[name];
      if (remembered !== undefined && !taken.includes(remembered)) {
        stored.ids[name] = remembered;
        return remembered;
      }
      let id = 0;
      write((into) => {
        id = Math.max(0, ...taken, ...Object.values(into.ids)) + 1;
        into.ids[name] = id;
      });
      return id;
    },
    node: (name) => stored.nodes[name],
    nodes: () => Object.entries(stored.nodes),
    remember(name, node) {
      const was = stored.nodes[name];
      // A heartbeat every few seconds changes only `seen`: written when the clusters change, or a
      // minute later, so that the file is not rewritten at each beat.
      if (
        was &&
        was.via === node.via &&
        was.clusters.join("\n") === node.clusters.join("\n") &&
        Date.parse(node.seen) - Date.parse(was.seen) < 60_000
      )
        return;
      write((into) => (into.nodes[name] = node));
    },
  };
}

function read(path: string): Stored {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<Stored>;
    const ids = Object.fromEntries(
      Object.entries(parsed.ids ?? {}).filter(([, id]) => Number.isSafeInteger(id) && id > 0),
    );
    const nodes = Object.fromEntries(
      Object.entries(parsed.nodes ?? {}).filter(
        ([, node]) =>
          typeof node?.via === "string" &&
          typeof node.seen === "string" &&
          Array.isArray(node.clusters) &&
          node.clusters.every((name) => typeof name === "string"),
      ),
    );
    return { ids, nodes };
  } catch {
    return { ids: {}, nodes: {} };
  }
}
