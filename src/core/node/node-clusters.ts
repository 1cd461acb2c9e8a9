// A node's clusters in a hub's fleet (D22): the one place that adds, updates and marks down the
// clusters of a node, whichever transport found it (HTTP here, NATS too). A node's cluster is
// `<node>.<cluster>`, with a hub id after the local ones, kept while the hub runs.
import {
  DEFAULT_ICON,
  DEFAULT_TUNING,
  type ClusterConfig,
  type NodeLink,
} from "../config/cluster-config.ts";
import type { Endpoint } from "../config/endpoint.ts";
import type { Fleet } from "../engine/fleet.ts";
import type { ErrorBody } from "../errors.ts";
import { retryClusterNow } from "../hub/container-mirror.ts";
import type { RememberedNodes } from "./remembered-nodes.ts";

/** A node as a transport knows it: its name, how it is reached, and its transport's own fields. */
export type NodeSource = Omit<NodeLink, "cluster" | "seen" | "error">;

/** A cluster a node offers, from its `/list/cluster`: its name there, and its icon. */
export interface NodeCluster {
  name: string;
  icon?: string;
}

/** What a transport heard of a node: its clusters, or why it cannot be reached. */
export type NodeHeard = { clusters: readonly NodeCluster[] } | { error: ErrorBody };

/**
 * Bring a node's clusters in `fleet` up to what was heard of it: with its clusters, each is
 * `<node>.<cluster>` (added, or kept and marked seen now), and those it no longer offers leave;
 * with an error, its clusters stay, each marked with it (their engine reads fail with it, the last
 * time seen in its words). A node down before this hub listed it shows the clusters `memory`
 * remembers of it, each with the error; one never reached at all is one entry named after the
 * node, as a NotReady node is listed by kubectl: what it serves is unknown, that it fails is not.
 * Ids come from `memory` (the same for a name in every run and process), else after the highest.
 * `endpoint` is what records show of the node (its URL's host and port). Replaces
 * `fleet.config.clusters` with a new list, in id order, when it changes, so that views of the
 * fleet (a scoped token's) follow.
 */
export function syncNodeClusters(
  fleet: Fleet,
  source: NodeSource,
  heard: NodeHeard,
  endpoint: Endpoint,
  memory?: RememberedNodes,
): void {
  const config = fleet.config;
  const own = config.clusters.filter((cluster) => cluster.node?.name === source.name);
  const others = config.clusters.filter((cluster) => cluster.node?.name !== source.name);
  const taken = others.map((cluster) => cluster.id);
  const idOf = (name: string) => {
    const id = memory?.idOf(name, taken) ?? Math.max(0, ...taken, ...own.map((c) => c.id)) + 1;
    taken.push(id);
    return id;
  };
  const make = (name: string, icon: string | undefined, link: NodeLink): ClusterConfig => ({
    ...endpoint,
    ...DEFAULT_TUNING,
    id: idOf(name),
    name,
    icon: icon ?? DEFAULT_ICON,
    host: source.via,
    source: "node",
    node: link,
  });
  const update = (clusters: ClusterConfig[]) => {
    if (clusters.length !== own.length || clusters.some((cluster, index) => cluster !== own[index]))
      config.clusters = [...others, ...clusters].sort((a, b) => a.id - b.id);
  };
  if ("error" in heard) {
    for (const cluster of own) cluster.node!.error = heard.error;
    if (own.length) return;
    const last = memory?.node(source.name);
    return update(
      last?.clusters.length
        ? last.clusters.map((name) =>
            make(`${source.name}.${name}`, undefined, {
              ...source,
              cluster: name,
              seen: last.seen,
              error: heard.error,
            }),
          )
        : [make(source.name, undefined, { ...source, error: heard.error })],
    );
  }
  const seen = new Date().toISOString();
  memory?.remember(source.name, {
    via: source.via,
    nats: Boolean(source.nats),
    clusters: heard.clusters.map(({ name }) => name),
    seen,
  });
  update(
    heard.clusters.map((offered) => {
      const name = `${source.name}.${offered.name}`;
      const found = own.find((cluster) => cluster.name === name && cluster.node?.cluster);
      if (!found) return make(name, offered.icon, { ...source, cluster: offered.name, seen });
      const wasDown = Boolean(found.node!.error);
      // The same link object: the cluster's engine backend reads it at each call.
      Object.assign(found.node!, source, { seen });
      // Back after an error: its link is up before its event stream and mirror are.
      delete found.node!.error;
      if (wasDown) retryClusterNow(found, { fleet });
      // Listed from memory while down: its icon is known now.
      if (offered.icon) found.icon = offered.icon;
      return found;
    }),
  );
}
