import type { ClusterConfig } from "../config/cluster-config.ts";
import { callEngine, dialEngine, expectBody } from "./engine.ts";
import type { CoreOptions } from "./fleet.ts";

/** The parts of the engine's `GET /version` body docklens reads; the rest passes through. */
export interface EngineVersion {
  Version?: string;
  /** The newest API version the engine speaks, `1.50`. */
  ApiVersion?: string;
  [key: string]: unknown;
}

/** The engine's `/version`, a shared read (drift shows it; disk usage checks what the API takes). */
export function readEngineVersion(
  cluster: ClusterConfig,
  options: CoreOptions,
): Promise<EngineVersion> {
  return callEngine(
    cluster,
    async (docker, signal) =>
      expectBody<EngineVersion>(await dialEngine(docker, "/version", signal), "object", cluster),
    { ...options, read: { kind: "version" } },
  );
}

/** True when `version` (`1.50`) is `min` (`1.42`) or newer; false when the engine gave none. */
export function apiAtLeast(version: string | undefined, min: string): boolean {
  const parse = (text: string) => text.split(".").map(Number);
  if (!version || !/^\d+\.\d+$/.test(version)) return false;
  const [major, minor] = parse(version);
  const [minMajor, minMinor] = parse(min);
  return major! > minMajor! || (major === minMajor && minor! >= minMinor!);
}
