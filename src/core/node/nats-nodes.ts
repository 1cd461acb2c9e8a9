// The nodes a hub finds over NATS (docs/guide/nats.md): it asks every node at start (a
// request on the discovery subject that each node answers), then hears each node's heartbeat.
// node-clusters.ts puts their clusters in the fleet as `<node>.<cluster>`; a node that stops
// beating, says goodbye, or a NATS link that breaks leaves its clusters listed with the reason
// and the last time seen, and its next heartbeat brings them back. A node remembered from an
// earlier run (remembered-nodes.ts) that does not answer is listed so too.
import type { NatsConnection } from "@nats-io/transport-node";
import type { Fleet } from "../engine/fleet.ts";
import { DISCOVER_SUBJECT, HEARTBEATS_SUBJECT, decodeHeartbeat } from "../engine/nats-protocol.ts";
import type { ErrorBody } from "../errors.ts";
import { connectNats, withoutUser } from "./nats-connect.ts";
import { syncNodeClusters } from "./node-clusters.ts";
import type { RememberedNodes } from "./remembered-nodes.ts";

/** Heartbeats a node may miss before its clusters are marked down. */
const MISSED_BEATS = 3;
/** How long a one-shot command waits for nodes to answer its discovery once none has for a while. */
const QUIET_MS = 250;
const DISCOVERY_MS = 2000;
/** A node remembered but not heard for this long is no longer listed (it was taken away). */
const FORGET_MS = 7 * 24 * 3600_000;

/** Options of {@link joinNatsNodes}. */
export interface JoinNatsNodesOptions {
  /** Keep the nodes up to date until this aborts (serve); unset, ask once (the CLI). */
  watch?: AbortSignal;
  /** The ids of node clusters and the nodes last heard, across runs (remembered-nodes.ts). */
  memory?: RememberedNodes;
}

/** The hub's NATS link, while its nodes are in the fleet. */
export interface NatsNodes {
  /** Close the link: the clusters of its nodes fail their reads from then on. */
  close(): Promise<void>;
}

/**
 * Add the clusters of every node on the config's NATS to `fleet`. The CLI asks once and waits
 * for the answers ({@link DISCOVERY_MS} at most); serve keeps listening, reconnecting for ever
 * (with jitter), until `watch` aborts, having waited for the first answers as the CLI does when
 * the NATS server is up. A NATS server that cannot be reached is a warning of the CLI, and serve
 * keeps trying; either way the nodes `memory` remembers are listed with the reason meanwhile.
 */
export async function joinNatsNodes(
  fleet: Fleet,
  options: JoinNatsNodesOptions = {},
): Promise<NatsNodes> {
  const config = fleet.config.nats!;
  const via = config.servers.map(withoutUser).join(",");
  const connecting = connectNats({
    servers: config.servers,
    name: "docklens hub",
    waitForServer: Boolean(options.watch),
    ...(config.creds ? { creds: config.creds } : {}),
  });
  const { memory } = options;
  if (!options.watch) {
    const nats = await connecting.catch((error: Error) => {
      fleet.config.warnings.push(`nodes over NATS are not listed: ${error.message}`);
      unheard(fleet, via, memory, `the NATS server (${via}) cannot be reached: ${error.message}`);
      return undefined;
    });
    if (!nats) return { close: async () => {} };
    const heard = listen(fleet, nats, via, memory);
    await heard.discover(DISCOVERY_MS);
    return { close: () => closeLink(heard, nats) };
  }
  const stop = options.watch;
  let link: { heard: ReturnType<typeof listen>; nats: NatsConnection } | undefined;
  const first = connecting.then(
    async (nats) => {
      if (stop.aborted) return void (await nats.close());
      link = { heard: listen(fleet, nats, via, memory), nats };
      await link.heard.discover(DISCOVERY_MS);
    },
    () => {}, // connectNats retries for ever with waitForServer: only a bad creds file ends here
  );
  // Serve starts with the nodes that answer at once, unless NATS is not there yet.
  const { setTimeout: sleep } = await import("node:timers/promises");
  await Promise.race([first, sleep(2 * DISCOVERY_MS, undefined, { ref: false })]);
  if (!link) unheard(fleet, via, memory, `the link to NATS (${via}) is not up yet`);
  const close = async () => {
    if (link) await closeLink(link.heard, link.nats);
  };
  stop.addEventListener("abort", () => void close(), { once: true });
  return { close };
}

async function closeLink(heard: ReturnType<typeof listen>, nats: NatsConnection): Promise<void> {
  heard.stop();
  await nats.close().catch(() => {});
}

/**
 * List each node `memory` remembers on `via` and seen within {@link FORGET_MS}, but for those
 * `heard`, down with `reason` (and the last time it was seen).
 */
function unheard(
  fleet: Fleet,
  via: string,
  memory: RememberedNodes | undefined,
  reason: string,
  heard: ReadonlySet<string> = new Set(),
  nats?: NatsConnection,
): void {
  const endpoint = endpointOf(via);
  for (const [name, node] of memory?.nodes() ?? []) {
    if (!node.nats || node.via !== via || heard.has(name)) continue;
    if (Date.now() - Date.parse(node.seen) > FORGET_MS) continue;
    const error = {
      code: "ENGINE_UNREACHABLE" as const,
      message: `node "${name}": ${reason} (last seen ${node.seen})`,
    };
    syncNodeClusters(fleet, { name, via, ...(nats ? { nats } : {}) }, { error }, endpoint, memory);
  }
}

/** What records show of a node's clusters: the NATS server the hub dialled first. */
function endpointOf(via: string) {
  const first = new URL(via.split(",")[0]!);
  return { protocol: "http" as const, hostname: first.hostname, port: Number(first.port) || 4222 };
}

/** Hear heartbeats and answers to discovery on `nats`, and keep the fleet's node clusters so. */
function listen(
  fleet: Fleet,
  nats: NatsConnection,
  via: string,
  memory: RememberedNodes | undefined,
) {
  /** The nodes heard since the link opened. */
  const heard = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();
  let lastAnswerAt = 0;
  // A read that finds the node gone marks it down at once; its next heartbeat brings it back.
  const source = (name: string) => ({
    name,
    via,
    nats,
    lost: (error: ErrorBody) => down(name, { ...error, message: error.message + lastSeen(name) }),
  });
  const endpoint = endpointOf(via);
  const down = (name: string, error: ErrorBody) => {
    clearTimeout(timers.get(name));
    timers.delete(name);
    syncNodeClusters(fleet, source(name), { error }, endpoint, memory);
  };
  const lastSeen = (name: string) => {
    const seen =
      fleet.config.clusters.find((cluster) => cluster.node?.name === name)?.node?.seen ??
      memory?.node(name)?.seen;
    return seen ? ` (last seen ${seen})` : "";
  };
  const onBeat = (data: Uint8Array, subject?: string) => {
    const decoded = decodeHeartbeat(data);
    // A node publishes only on its own subjects (its NATS user's permissions): the subject's
    // name is the one to trust.
    if (!decoded.ok || (subject && subject !== `docklens.node.${decoded.value.name}.heartbeat`))
      return;
    lastAnswerAt = Date.now();
    const { name, clusters, everyMs, stopping } = decoded.value;
    heard.add(name);
    if (stopping)
      return down(name, {
        code: "ENGINE_UNREACHABLE",
        message: `node "${name}" stopped${lastSeen(name)}`,
      });
    syncNodeClusters(
      fleet,
      source(name),
      { clusters: clusters.map((n) => ({ name: n })) },
      endpoint,
      memory,
    );
    clearTimeout(timers.get(name));
    timers.set(
      name,
      setTimeout(() => {
        down(name, {
          code: "ENGINE_UNREACHABLE",
          message: `node "${name}" sent no heartbeat for ${(MISSED_BEATS * everyMs) / 1000} s${lastSeen(name)}`,
        });
      }, MISSED_BEATS * everyMs).unref(),
    );
  };
  const heartbeats = nats.subscribe(HEARTBEATS_SUBJECT, {
    callback: (_, msg) => onBeat(msg.data, msg.subject),
  });
  const answers = nats.subscribe(`_INBOX.docklens.${Math.random().toString(36).slice(2)}`, {
    callback: (_, msg) => onBeat(msg.data),
  });
  const ask = () => nats.publish(DISCOVER_SUBJECT, "", { reply: answers.getSubject() });
  const known = () =>
    new Set(fleet.config.clusters.flatMap((c) => (c.node?.nats ? [c.node.name] : [])));
  void (async () => {
    for await (const status of nats.status()) {
      if (status.type === "disconnect")
        for (const name of known())
          down(name, {
            code: "ENGINE_UNREACHABLE",
            message: `the link to NATS (${via}) broke${lastSeen(name)}`,
          });
      // Back: ask every node again rather than wait for its next heartbeat.
      if (status.type === "reconnect") ask();
    }
  })();
  return {
    /** Ask every node, and wait until answers stop coming (`maxMs` at most). */
    async discover(maxMs: number) {
      const started = Date.now();
      ask();
      await nats.flush().catch(() => {});
      while (Date.now() - started < maxMs) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 2));
        if (Date.now() - Math.max(lastAnswerAt, started) >= QUIET_MS) break;
      }
      unheard(fleet, via, memory, `no answer on NATS (${via})`, heard, nats);
    },
    stop() {
      heartbeats.unsubscribe();
      answers.unsubscribe();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
