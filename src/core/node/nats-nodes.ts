// The nodes a hub finds over NATS (docs/guide/nats.md): it asks every node at start (a
// request on the discovery subject that each node answers), then hears each node's heartbeat.
// node-clusters.ts puts their clusters in the fleet as `<node>.<cluster>`; a node that stops
// beating, says goodbye, or a NATS link that breaks leaves its clusters listed with the reason
// and the last time seen, and its next heartbeat brings them back.
import type { NatsConnection } from "@nats-io/transport-node";
import type { Fleet } from "../engine/fleet.ts";
import { DISCOVER_SUBJECT, HEARTBEATS_SUBJECT, decodeHeartbeat } from "../engine/nats-protocol.ts";
import type { ErrorBody } from "../errors.ts";
import { connectNats, withoutUser } from "./nats-connect.ts";
import { syncNodeClusters } from "./node-clusters.ts";

/** Heartbeats a node may miss before its clusters are marked down. */
const MISSED_BEATS = 3;
/** How long a one-shot command waits for nodes to answer its discovery once none has for a while. */
const QUIET_MS = 250;
const DISCOVERY_MS = 2000;

/** Options of {@link joinNatsNodes}. */
export interface JoinNatsNodesOptions {
  /** Keep the nodes up to date until this aborts (serve); unset, ask once (the CLI). */
  watch?: AbortSignal;
}

/** The hub's NATS link, while its nodes are in the fleet. */
export interface NatsNodes {
  /** Close the link: the clusters of its nodes fail their reads from then on. */
  close(): Promise<void>;
}

/**
 * Add the clusters of every node on the config's NATS to `fleet`. The CLI asks once and waits
 * for the answers ({@link DISCOVERY_MS} at most); serve keeps listening, reconnecting for ever
 * (with jitter), until `watch` aborts. A NATS server that cannot be reached is a warning of the
 * CLI, and serve keeps trying.
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
  if (!options.watch) {
    const nats = await connecting.catch((error: Error) => {
      fleet.config.warnings.push(`nodes over NATS are not listed: ${error.message}`);
      return undefined;
    });
    if (!nats) return { close: async () => {} };
    const heard = listen(fleet, nats, via);
    await heard.discover(DISCOVERY_MS);
    return { close: () => closeLink(heard, nats) };
  }
  const stop = options.watch;
  let link: { heard: ReturnType<typeof listen>; nats: NatsConnection } | undefined;
  void connecting.then(
    async (nats) => {
      if (stop.aborted) return void (await nats.close());
      link = { heard: listen(fleet, nats, via), nats };
      await link.heard.discover(DISCOVERY_MS);
    },
    () => {}, // connectNats retries for ever with waitForServer: only a bad creds file ends here
  );
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

/** Hear heartbeats and answers to discovery on `nats`, and keep the fleet's node clusters so. */
function listen(fleet: Fleet, nats: NatsConnection, via: string) {
  const timers = new Map<string, NodeJS.Timeout>();
  let lastAnswerAt = 0;
  // A read that finds the node gone marks it down at once; its next heartbeat brings it back.
  const source = (name: string) => ({
    name,
    via,
    nats,
    lost: (error: ErrorBody) => down(name, { ...error, message: error.message + lastSeen(name) }),
  });
  // What records show of a node's clusters: the NATS server the hub dialled first.
  const first = new URL(via.split(",")[0]!);
  const endpoint = {
    protocol: "http" as const,
    hostname: first.hostname,
    port: Number(first.port) || 4222,
  };
  const down = (name: string, error: ErrorBody) => {
    clearTimeout(timers.get(name));
    timers.delete(name);
    syncNodeClusters(fleet, source(name), { error }, endpoint);
  };
  const lastSeen = (name: string) => {
    const seen = fleet.config.clusters.find((cluster) => cluster.node?.name === name)?.node?.seen;
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
    },
    stop() {
      heartbeats.unsubscribe();
      answers.unsubscribe();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
