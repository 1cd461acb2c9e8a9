// The nodes of the config reached over HTTP(S) (docs/guide/nodes.md): what clusters each offers,
// from its `GET /list/cluster` under the node's token (so its scope), kept up to date while
// serve runs. node-clusters.ts puts them in the fleet.
import type { Agent } from "node:http";
import type { NodeConfig } from "../config/nodes-schema.ts";
import { nodeRequest } from "../engine/http-node-backend.ts";
import type { Fleet } from "../engine/fleet.ts";
import { isDocklensError, type ErrorBody } from "../errors.ts";
import { jittered } from "../hub/event-hub.ts";
import { syncNodeClusters, type NodeHeard } from "./node-clusters.ts";
import type { RememberedNodes } from "./remembered-nodes.ts";

/** How long a node has to list its clusters (it asks each of its engines, each within 5 s). */
const LIST_TIMEOUT_MS = 10_000;
/** How often serve asks a node it reaches for its clusters again. */
const REFRESH_MS = 60_000;
/** Waits before asking again a node it cannot reach: doubling from the first to the last, jittered. */
const RETRY_MS: readonly [number, number] = [1000, 30_000];

/** Options of {@link joinHttpNodes}. */
export interface JoinHttpNodesOptions {
  /** Keep each node's clusters up to date until this aborts (serve); unset, ask once (the CLI). */
  watch?: AbortSignal;
  /** The ids of node clusters and their last clusters, across runs (remembered-nodes.ts). */
  memory?: RememberedNodes;
}

/**
 * Add the clusters of every HTTP node of the fleet's config to it, each asked at once within
 * {@link LIST_TIMEOUT_MS}: a node that cannot be reached keeps the clusters `memory` remembers of
 * it, each with its error, or is listed as one cluster named after it with its error. With
 * `watch`, ask each again now and then (soon, with jittered backoff, while it cannot be reached),
 * until `watch` aborts.
 */
export async function joinHttpNodes(
  fleet: Fleet,
  options: JoinHttpNodesOptions = {},
): Promise<void> {
  const nodes = fleet.config.nodes ?? [];
  const agents = nodes.map(
    (node) =>
      new (process.getBuiltinModule(
        node.url.startsWith("https:") ? "node:https" : "node:http",
      ).Agent)({
        keepAlive: Boolean(options.watch),
        maxSockets: 1,
      }),
  );
  const sync = (node: NodeConfig, heard: NodeHeard) => {
    const url = new URL(node.url);
    syncNodeClusters(
      fleet,
      { name: node.name, via: node.url, http: node },
      heard,
      {
        protocol: url.protocol === "https:" ? "https" : "http",
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
      },
      options.memory,
    );
    return !("error" in heard);
  };
  // The first answers all together, put in the fleet in the config's order of nodes.
  const first = await Promise.all(
    nodes.map((node, index) => listNodeClusters(node, agents[index]!)),
  );
  const reached = nodes.map((node, index) => sync(node, first[index]!));
  const signal = options.watch;
  if (!signal) {
    for (const agent of agents) agent.destroy();
    return;
  }
  signal.addEventListener("abort", () => agents.forEach((agent) => agent.destroy()), {
    once: true,
  });
  const { setTimeout: sleep } = await import("node:timers/promises");
  nodes.forEach((node, index) => {
    void (async () => {
      let wait = RETRY_MS[0];
      let up = reached[index]!;
      while (!signal.aborted) {
        await sleep(jittered(up ? REFRESH_MS : wait), undefined, { signal }).catch(() => {});
        if (signal.aborted) return;
        up = sync(node, await listNodeClusters(node, agents[index]!));
        wait = up ? RETRY_MS[0] : Math.min(wait * 2, RETRY_MS[1]);
      }
    })();
  });
}

/** A node's clusters, from its `GET /list/cluster`; or why it cannot be asked. */
async function listNodeClusters(node: NodeConfig, agent: Agent): Promise<NodeHeard> {
  try {
    const body = (await nodeRequest(
      node.name,
      node,
      agent,
      "/list/cluster",
      AbortSignal.timeout(LIST_TIMEOUT_MS),
      false,
    )) as { clusters?: Array<{ name?: unknown; icon?: unknown }> };
    const clusters = Array.isArray(body?.clusters) ? body.clusters : undefined;
    if (!clusters) return { error: unreachable(node, "its answer lists no clusters") };
    return {
      clusters: clusters.flatMap(({ name, icon }) =>
        typeof name === "string" ? [{ name, ...(typeof icon === "string" ? { icon } : {}) }] : [],
      ),
    };
  } catch (error) {
    if (isDocklensError(error)) return { error: { code: error.code, message: error.message } };
    const { code, name, message } = error as NodeJS.ErrnoException;
    const reason =
      name === "TimeoutError" || name === "AbortError"
        ? `no answer within ${LIST_TIMEOUT_MS} ms`
        : (code ?? message);
    return { error: unreachable(node, reason) };
  }
}

function unreachable(node: NodeConfig, reason: string): ErrorBody {
  return {
    code: "ENGINE_UNREACHABLE",
    message: `cannot reach node "${node.name}" at ${node.url}: ${reason}`,
  };
}
