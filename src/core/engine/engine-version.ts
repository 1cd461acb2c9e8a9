import type { ClusterConfig } from "../config/cluster-config.ts";
import {
  acrossClusters,
  type AcrossClustersOptions,
  type ClusterError,
  type ClusterRef,
} from "./across-clusters.ts";
import { callEngine, expectBody } from "./engine.ts";
import type { CoreOptions, EngineSlot } from "./fleet.ts";

/** The parts of the engine's `GET /version` body docklens reads; the rest passes through. */
export interface EngineVersion {
  Version?: string;
  /** The newest API version the engine speaks, `1.50`. */
  ApiVersion?: string;
  [key: string]: unknown;
}

/** Each engine's `/version` once read: it changes only when the engine does. */
const versions = new WeakMap<EngineSlot, EngineVersion>();

/**
 * The engine's `/version` (drift shows it; disk usage checks what the API takes; the clusters
 * name the engine from it): read once per connection, and again only after the engine was seen
 * to go away ({@link forgetEngineFacts}).
 */
export async function readEngineVersion(
  cluster: ClusterConfig,
  options: CoreOptions & { probe?: boolean },
): Promise<EngineVersion> {
  const slot = options.fleet.slot(cluster);
  const known = versions.get(slot);
  if (known) return known;
  const version = await callEngine(
    cluster,
    async (engine, signal) =>
      expectBody<EngineVersion>(await engine.get("/version", signal), "object", cluster),
    { ...options, read: { kind: "version" } },
  );
  versions.set(slot, version);
  return version;
}

/** Each engine's `/version` by cluster, and the clusters that could not be asked. */
export interface ReadEngineVersionsResult {
  versions: Array<{ cluster: ClusterRef; version: EngineVersion }>;
  errors: ClusterError[];
}

/**
 * The `/version` of every cluster's engine (or of `options.clusters`), as `docker version` shows
 * its server's; clusters that fail are in `errors`.
 * @example
 * ```ts
 * const { versions } = await readEngineVersions({ fleet, clusters: ["prod"] });
 * console.log(versions[0]?.version.Version); // "28.5.1"
 * ```
 */
export async function readEngineVersions(
  options: AcrossClustersOptions,
): Promise<ReadEngineVersionsResult> {
  const { results, errors } = await acrossClusters(options, (cluster) =>
    readEngineVersion(cluster, options),
  );
  return { versions: results.map(({ cluster, value }) => ({ cluster, version: value })), errors };
}

/**
 * Forget what {@link readEngineVersion} read of an engine: it failed, or its event stream
 * dropped and came back, so it may be another engine (an upgrade, a restart) now.
 */
export function forgetEngineFacts(slot: EngineSlot): void {
  versions.delete(slot);
}

/** True when `version` (`1.50`) is `min` (`1.42`) or newer; false when the engine gave none. */
export function apiAtLeast(version: string | undefined, min: string): boolean {
  const parse = (text: string) => text.split(".").map(Number);
  if (!version || !/^\d+\.\d+$/.test(version)) return false;
  const [major, minor] = parse(version);
  const [minMajor, minMinor] = parse(min);
  return major! > minMajor! || (major === minMajor && minor! >= minMinor!);
}
