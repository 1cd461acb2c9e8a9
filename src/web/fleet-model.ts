// The fleet as the lines of `/list/containers?watch=true` make it, apart from the stream and the
// page: each cluster's state and rows, a change remaking one row. A stream opened again keeps
// what the last one said on screen until its own lines replace it; its `synced` line drops the
// clusters it did not name.
import { toRow, type ContainerRow } from "./containers-model.ts";
import type { ClusterRef, ContainerWatchLine, ErrorBody } from "./types.ts";

/** A cluster as the watch said it last. */
export interface WatchedCluster {
  cluster: ClusterRef;
  state: "waiting" | "live" | "down";
  error?: ErrorBody;
  rows: ContainerRow[];
}

/** What the views draw: every cluster in id order, and their rows, flat, in the same order. */
export interface FleetView {
  clusters: WatchedCluster[];
  rows: ContainerRow[];
}

/** Each cluster by id, with its rows' places by container id. */
export class FleetModel {
  private clusters = new Map<number, WatchedCluster & { index: Map<string, number> }>();
  /** Clusters the last stream named that this one has not named yet. */
  private unconfirmed = new Set<number>();

  /** Forget every cluster (another token's fleet, or no view left). */
  clear(): void {
    this.clusters.clear();
    this.unconfirmed.clear();
  }

  /** A new stream: what the last one said stays until this one's lines replace it. */
  reopened(): void {
    this.unconfirmed = new Set(this.clusters.keys());
  }

  /** Apply one line of the watch; false when it changed nothing. */
  apply(line: ContainerWatchLine): boolean {
    if (line.type === "synced") {
      for (const id of this.unconfirmed) this.clusters.delete(id);
      const dropped = this.unconfirmed.size > 0;
      this.unconfirmed.clear();
      return dropped;
    }
    this.unconfirmed.delete(line.cluster.id);
    const cluster = this.entry(line.cluster);
    // A cluster's rows are replaced, never changed in place: a view holding the last ones keeps them.
    let rows = cluster.rows;
    if (line.type === "snapshot") {
      rows = line.containers.map((item) => toRow(item, line.cluster));
      cluster.index = new Map(rows.map((row, place) => [row.id, place]));
      Object.assign(cluster, { state: "live", error: undefined });
    } else if (line.type === "down") Object.assign(cluster, { state: "down", error: line.error });
    else if (line.type === "waiting") cluster.state = "waiting";
    else if (line.type === "removed") {
      const place = cluster.index.get(line.id);
      if (place === undefined) return false;
      rows = rows.filter((_, at) => at !== place);
      cluster.index = new Map(rows.map((row, at) => [row.id, at]));
    } else {
      const row = toRow(line.container, line.cluster);
      const place = cluster.index.get(row.id);
      rows = [...rows];
      // A new container first, as the engine lists the newest first.
      if (place === undefined) {
        rows.unshift(row);
        cluster.index = new Map(rows.map((one, at) => [one.id, at]));
      } else rows[place] = row;
    }
    cluster.rows = rows;
    return true;
  }

  /** The clusters in id order and their rows, as the views draw them. */
  view(): FleetView {
    const list = [...this.clusters.values()]
      .sort((a, b) => a.cluster.id - b.cluster.id)
      .map(({ index: _, ...cluster }) => cluster);
    return { clusters: list, rows: list.flatMap((cluster) => cluster.rows) };
  }

  private entry(cluster: ClusterRef) {
    let found = this.clusters.get(cluster.id);
    if (!found) {
      found = { cluster, state: "waiting", rows: [], index: new Map() };
      this.clusters.set(cluster.id, found);
    }
    return found;
  }
}
