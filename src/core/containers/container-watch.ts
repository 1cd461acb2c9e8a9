// A watch of container lists, as Kubernetes' `?watch=true` serves one from its watch cache: each
// cluster's list once (a snapshot), then each container added, modified or removed, and the
// cluster's status in-line. One feed per cluster computes the changes from the cluster's live
// mirror (core/hub/container-mirror.ts) once, for every watcher; each watcher only queues them.
import type { ClusterConfig } from "../config/cluster-config.ts";
import type { ClusterRef } from "../engine/across-clusters.ts";
import { Backlog } from "../backlog.ts";
import { DocklensError, type ErrorBody } from "../errors.ts";
import {
  fleetHubOptions,
  resolveClusters,
  type CoreOptions,
  type EngineSlot,
} from "../engine/fleet.ts";
import { followMirror } from "../hub/container-mirror.ts";
import type { HubSubscription } from "../hub/event-hub.ts";
import type { ContainerItem } from "./container-types.ts";
import { listMirroredContainers, type ListContainersResult } from "./list-containers.ts";

/**
 * A line of a container watch (docs/design/watch.md, "Watching container lists"): a cluster's whole
 * list (`snapshot`, also when it comes back), one container `added`, `modified` or `removed`, a
 * cluster asked and not answered yet (`waiting`), or one that is `down`, with its error; once,
 * after every cluster's first line, `synced`.
 */
export type ContainerWatchLine =
  | { type: "snapshot"; cluster: ClusterRef; containers: ContainerItem[] }
  | { type: "added" | "modified"; cluster: ClusterRef; container: ContainerItem }
  | { type: "removed"; cluster: ClusterRef; id: string }
  | { type: "waiting"; cluster: ClusterRef }
  | { type: "down"; cluster: ClusterRef; error: ErrorBody }
  | { type: "synced" };

/** Options of {@link watchContainers}. */
export interface WatchContainersOptions extends CoreOptions {
  /** Cluster ids or names; every cluster when empty or absent. */
  clusters?: readonly string[];
  /**
   * What a watcher may leave unread of the changes (a snapshot is the mirror's own list, shared,
   * and not counted); past it the watch ends with `CLIENT_TOO_SLOW`. Default 16 MiB, 100,000 lines.
   */
  maxBacklog?: { items?: number; bytes?: number };
}

/** How often a feed reads its mirror for `Status` texts that changed with time ("Up 5 minutes"). */
const TICK_MS = 1000;

type Line = ContainerWatchLine;

/** What a watcher is given: a line, and its size for the backlog (0 for a snapshot). */
type Deliver = (line: Line, size: number) => void;

interface Feed {
  ref: ClusterRef;
  watchers: Set<Deliver>;
  state: "waiting" | "live" | "down";
  error?: ErrorBody;
  body?: ListContainersResult;
  /** The JSON text of each container last sent, by id: a change is a text that differs. */
  texts: Map<string, string>;
  syncing: boolean;
  again: boolean;
  follow: HubSubscription;
  tick: NodeJS.Timeout;
}

const feeds = new WeakMap<EngineSlot, Feed>();

/**
 * Watch the containers of every cluster (or of `options.clusters`): for each, at once, its
 * snapshot (when its mirror is live), `down` (when it is known down) or `waiting` (until its
 * first list, or its time limit, comes), and once all have theirs, `synced`; then its changes as
 * the mirror sees them, a container a line, and `down` / a new snapshot as the engine goes and
 * comes back. A cluster never holds up another. Needs a live fleet (serve's). A watcher that
 * falls `maxBacklog` behind gets a last `CLIENT_TOO_SLOW` error. Ends when `options.signal`
 * aborts or the consumer stops.
 * @example
 * ```ts
 * for await (const line of await watchContainers({ fleet }))
 *   console.log(line.type, line.type === "synced" ? "every cluster" : line.cluster.name);
 * ```
 */
export async function watchContainers(
  options: WatchContainersOptions,
): Promise<AsyncGenerator<ContainerWatchLine>> {
  if (!fleetHubOptions(options.fleet).live)
    throw new DocklensError(
      "INTERNAL_ERROR",
      "a container watch needs a live fleet: createFleet(config, { live: true })",
    );
  const clusters = resolveClusters(options.clusters, options);
  const backlog = new Backlog({ items: 100_000, ...options.maxBacklog });
  const queue: Array<{ line: Line; size: number }> = [];
  const ended: { failure?: DocklensError } = {};
  let wake: (() => void) | undefined;
  const deliver: Deliver = (line, size) => {
    if (ended.failure) return;
    if (!backlog.add(size))
      ended.failure = backlog.tooSlow("watch again: each cluster's snapshot comes first");
    else queue.push({ line, size });
    wake?.();
  };
  const joined = clusters.map((cluster) => join(cluster, options, deliver));
  // After each join's `waiting` (set up before it): the watcher now holds every cluster asked, as
  // client-go's informers are synced, and a cluster it held but was not told of is gone.
  setImmediate(() => deliver({ type: "synced" }, 0));
  const aborted = new Promise<void>((resolve) => {
    if (options.signal?.aborted) resolve();
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  return (async function* () {
    try {
      while (!options.signal?.aborted) {
        while (queue.length) {
          const { line, size } = queue.shift()!;
          backlog.remove(size);
          yield line;
        }
        if (ended.failure) throw ended.failure;
        await Promise.race([aborted, new Promise<void>((resolve) => (wake = resolve))]);
      }
    } finally {
      for (const leave of joined) leave();
    }
  })();
}

/** Join a cluster's feed (opening it for the first watcher): told its state at once. */
function join(cluster: ClusterConfig, options: CoreOptions, deliver: Deliver): () => void {
  const slot = options.fleet.slot(cluster);
  let feed = feeds.get(slot);
  if (!feed) feeds.set(slot, (feed = open(cluster, options)));
  const held = feed;
  held.watchers.add(deliver);
  if (held.state === "live") deliver(snapshotOf(held), 0);
  else if (held.state === "down") deliver(downOf(held), 0);
  // A mirror that is live or known down answers within a few microtasks: say `waiting` only
  // if it did not (a first list under way).
  else
    setImmediate(() => {
      if (held.state === "waiting" && held.watchers.has(deliver))
        deliver({ type: "waiting", cluster: held.ref }, 0);
    });
  return () => {
    held.watchers.delete(deliver);
    if (held.watchers.size || feeds.get(slot) !== held) return;
    feeds.delete(slot);
    clearInterval(held.tick);
    held.follow.close();
  };
}

function open(cluster: ClusterConfig, options: CoreOptions): Feed {
  // Its own options: the feed outlives the watcher that opened it, and its signal.
  const own = { fleet: options.fleet };
  const feed: Feed = {
    ref: { id: cluster.id, name: cluster.name },
    watchers: new Set(),
    state: "waiting",
    texts: new Map(),
    syncing: false,
    again: false,
    follow: { close() {} },
    tick: setInterval(() => void sync(cluster, own, feed), TICK_MS).unref(),
  };
  feed.follow = followMirror(cluster, own, () => void sync(cluster, own, feed));
  void sync(cluster, own, feed);
  return feed;
}

const snapshotOf = (feed: Feed): Line => ({
  type: "snapshot",
  cluster: feed.ref,
  containers: feed.body?.containers ?? [],
});
const downOf = (feed: Feed): Line => ({ type: "down", cluster: feed.ref, error: feed.error! });

function tell(feed: Feed, line: Line, size: number): void {
  for (const deliver of [...feed.watchers]) deliver(line, size);
}

/** Read the mirror and tell the watchers what changed since the last read: one read at a time. */
async function sync(cluster: ClusterConfig, options: CoreOptions, feed: Feed): Promise<void> {
  if (feed.syncing) {
    feed.again = true;
    return;
  }
  feed.syncing = true;
  try {
    const body = await listMirroredContainers(cluster, options);
    if (body && body !== feed.body) apply(feed, body);
  } catch (error) {
    const known = (error as DocklensError).toJSON?.() ?? {
      code: "ENGINE_ERROR" as const,
      message: String(error),
    };
    if (feed.state !== "down" || feed.error?.message !== known.message) {
      feed.state = "down";
      feed.error = known;
      feed.body = undefined;
      feed.texts.clear();
      tell(feed, downOf(feed), 0);
    }
  } finally {
    feed.syncing = false;
  }
  if (feed.again && feeds.get(options.fleet.slot(cluster)) === feed) {
    feed.again = false;
    void sync(cluster, options, feed);
  }
}

/** Tell a first list (or one after `down`) as a snapshot, else each container that changed. */
function apply(feed: Feed, body: ListContainersResult): void {
  const texts = new Map(body.containers.map((item) => [item.Id, JSON.stringify(item)]));
  const before = feed.texts;
  feed.body = body;
  feed.texts = texts;
  if (feed.state !== "live") {
    feed.state = "live";
    feed.error = undefined;
    tell(feed, snapshotOf(feed), 0);
    return;
  }
  for (const container of body.containers) {
    const text = texts.get(container.Id)!;
    const was = before.get(container.Id);
    if (was === text) continue;
    const type = was === undefined ? "added" : "modified";
    tell(feed, { type, cluster: feed.ref, container }, text.length);
  }
  for (const id of before.keys())
    if (!texts.has(id)) tell(feed, { type: "removed", cluster: feed.ref, id }, id.length);
}
