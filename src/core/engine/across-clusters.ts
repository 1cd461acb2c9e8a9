import type { ClusterConfig } from "../config/cluster-config.ts";
import type { ErrorBody } from "../errors.ts";
import { translateEngineError } from "./engine.ts";
import { fleetAcrossReads, resolveClusters, type CoreOptions } from "./fleet.ts";
import { readKey, shareBody, type EngineRead } from "./shared-reads.ts";

/** A cluster as items and errors of across-cluster bodies name it. */
export interface ClusterRef {
  id: number;
  name: string;
}

/** A cluster that could not be asked, in the `errors` of an across-cluster body. */
export interface ClusterError {
  cluster: ClusterRef;
  error: ErrorBody;
}

/** Options of the operations over many clusters. */
export interface AcrossClustersOptions extends CoreOptions {
  /** Cluster ids or names to ask; all of them when empty or absent. An unknown one is `CLUSTER_NOT_FOUND`. */
  clusters?: readonly string[];
}

/**
 * Run `read` on every cluster asked for (each once, in id order), concurrently, each under its
 * own time limit, and gather what succeeded and what failed: one engine that fails never fails
 * the others. The results come back in cluster id order, whenever each answered.
 */
export async function acrossClusters<T>(
  options: AcrossClustersOptions,
  read: (cluster: ClusterConfig, ref: ClusterRef) => Promise<T>,
): Promise<{ results: Array<{ cluster: ClusterRef; value: T }>; errors: ClusterError[] }> {
  const clusters = [...resolveClusters(options.clusters, options)].sort((a, b) => a.id - b.id);
  const refs = clusters.map((cluster) => ({ id: cluster.id, name: cluster.name }));
  const settled = await Promise.allSettled(
    clusters.map((cluster, index) => read(cluster, refs[index]!)),
  );
  const results: Array<{ cluster: ClusterRef; value: T }> = [];
  const errors: ClusterError[] = [];
  settled.forEach((outcome, index) => {
    const cluster = clusters[index]!;
    const ref = refs[index]!;
    // A filter one engine refuses (another version may take it) is that cluster's error too.
    if (outcome.status === "fulfilled") results.push({ cluster: ref, value: outcome.value });
    else
      errors.push({ cluster: ref, error: translateEngineError(outcome.reason, cluster).toJSON() });
  });
  return { results, errors };
}

/**
 * The body of a read over many clusters, shared by identical ones in flight (the same read of
 * the same clusters, however they were named): one body object for all of them, which the server
 * serialises and compresses once (docs/http-interface.md, "Compression"). `build` makes it with
 * the shared call's options, whose signal aborts when every caller has left.
 */
export async function shareAcross<O extends AcrossClustersOptions, T>(
  options: O,
  read: EngineRead,
  build: (options: O) => Promise<T>,
): Promise<T> {
  const ids = resolveClusters(options.clusters, options)
    .map((cluster) => cluster.id)
    .sort((a, b) => a - b);
  return fleetAcrossReads(options.fleet).run(
    readKey({ kind: "across", read, clusters: ids }),
    async (signal) => shareBody(await build({ ...options, clusters: ids.map(String), signal })),
    options.signal,
  );
}
