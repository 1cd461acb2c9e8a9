// `docklens node`: serve this config's clusters to hubs over NATS, opening no port
// (docs/guide/nats.md). Every read goes through answerEngineRead, the node's allow-list.
import { setMaxListeners } from "node:events";
import { clusterGlob } from "../core/config/cluster-config.ts";
import { connectNats, withoutUser } from "../core/node/nats-connect.ts";
import { NODE_NAME_PATTERN } from "../core/engine/nats-protocol.ts";
import { narrowFleet } from "../core/engine/fleet.ts";
import { openFleet } from "../core/node/open-fleet.ts";
import { DocklensError } from "../core/errors.ts";
import { answerEngineRead } from "../core/node/engine-read.ts";
import { serveNodeOverNats } from "../core/node/nats-node.ts";

/** Time the goodbye to the hubs gets after SIGINT or SIGTERM. */
const CLOSE_MS = 5000;

/** The options of `docklens node`, as commander gives them. */
export interface NodeOptions {
  nats?: string;
  name?: string;
  natsCreds?: string;
  config?: string;
  clusters?: string[];
  heartbeat?: string;
  showSecrets?: boolean;
  /** Where history is kept, when the config's `history.path` does not say. */
  dataDir?: string;
}

/** Serve until SIGINT or SIGTERM, then say goodbye to the hubs and close. */
export async function node(given: NodeOptions): Promise<void> {
  if (!given.nats) throw new DocklensError("INVALID_QUERY", "--nats: required (nats://host:4222)");
  if (given.name === undefined) throw new DocklensError("INVALID_QUERY", "--name: required");
  const options = { ...given, nats: given.nats, name: given.name };
  if (!NODE_NAME_PATTERN.test(options.name) || options.name.length > 64)
    throw new DocklensError(
      "INVALID_QUERY",
      `--name: expected letters, digits, '_' or '-' (no dots), at most 64, ` +
        `not ${JSON.stringify(options.name.slice(0, 80))}`,
    );
  const heartbeatMs = options.heartbeat === undefined ? 5000 : Number(options.heartbeat) * 1000;
  if (!(heartbeatMs >= 100 && heartbeatMs <= 3_600_000))
    throw new DocklensError("INVALID_QUERY", "--heartbeat: expected seconds, from 0.1 to 3600");
  // Live, as serve: lists from each cluster's mirror and events from its one watch, so that
  // many hubs cost the engines what one does.
  // It serves the config's own clusters: nodes of its config are not joined.
  const { fleet } = await openFleet({
    ...(options.config ? { configPath: options.config } : {}),
    live: true,
    nodes: false,
  });
  const globs = (options.clusters ?? []).map(clusterGlob);
  const offered = globs.length
    ? narrowFleet(fleet, (cluster) => globs.some((glob) => glob.test(cluster.name)))
    : fleet;
  if (!offered.config.clusters.length) {
    fleet.close();
    throw new DocklensError(
      "CLUSTER_NOT_FOUND",
      `--clusters ${options.clusters!.join(" ")} matches no cluster of the config`,
    );
  }
  await (await import("./record.ts")).checkRecording(offered).catch((error: unknown) => {
    fleet.close();
    throw error;
  });
  const servers = options.nats.split(",").map((server) => server.trim());
  const nats = await connectNats({
    servers,
    name: `docklens node ${options.name}`,
    ...(options.natsCreds ? { creds: options.natsCreds } : {}),
  }).catch((error: unknown) => {
    fleet.close();
    throw error;
  });
  const history = await (await import("./record.ts")).startRecording(offered, options);
  const names = () => offered.config.clusters.map((cluster) => cluster.name);
  const served = serveNodeOverNats({
    nats,
    name: options.name,
    clusters: names,
    heartbeatMs,
    answer: (read, signal) =>
      answerEngineRead(read, {
        fleet: offered,
        signal,
        ...(options.showSecrets ? { showSecrets: true } : {}),
      }),
  });
  process.stdout.write(
    `docklens node ${options.name}: serving ${names().join(", ")} ` +
      `over NATS at ${servers.map(withoutUser).join(", ")}\n`,
  );
  const stopped = new AbortController();
  setMaxListeners(0, stopped.signal);
  const stop = (signal: NodeJS.Signals) => stopped.abort(signal);
  process.once("SIGINT", stop).once("SIGTERM", stop);
  void (async () => {
    for await (const status of nats.status())
      if (status.type === "disconnect" || status.type === "reconnect")
        process.stderr.write(
          `docklens node ${options.name}: ` +
            `${status.type === "disconnect" ? "NATS link lost, reconnecting" : "NATS link back"}\n`,
        );
  })();
  await new Promise((resolve) => stopped.signal.addEventListener("abort", resolve, { once: true }));
  process.off("SIGINT", stop).off("SIGTERM", stop);
  // One line on stop, as serve's: a node that went away under a supervisor says it was told to.
  process.stderr.write(
    `docklens node ${options.name}: ${String(stopped.signal.reason)}: saying goodbye to the hubs\n`,
  );
  // A second signal, or a close that hangs, ends it at once, as serve does.
  for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => process.exit(1));
  setTimeout(() => process.exit(0), CLOSE_MS).unref();
  await served.close();
  await nats.close();
  await history?.close();
  fleet.close();
  // The fleet's live watches keep timers of their grace period: the node is done now.
  process.exit(0);
}
