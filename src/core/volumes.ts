import type Dockerode from "dockerode";
import { callEngine, dialEngine, expectBody } from "./engine.ts";
import { filteredCall, type ListOptions } from "./filters.ts";
import { inspectObject } from "./objects.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "./fleet.ts";

/** A volume as docklens shows it: `Labels` always an object, `CreatedAt` in UTC (D5). */
export type VolumeItem = Omit<Dockerode.VolumeInspectInfo, "Labels"> & {
  Labels: Record<string, string>;
  CreatedAt?: string;
};

/** Body of `/list/:cluster/volumes` (D5), with nothing beside `Volumes`. */
export interface ListVolumesResult {
  Volumes: VolumeItem[];
}

/**
 * Every volume of a cluster (D5), or those docker's filters keep, sorted by name as `docker
 * volume ls` shows them: the engine answers in no stable order. `cluster` is an id or a name (D1).
 */
export async function listVolumes(
  cluster: string,
  options: ListOptions,
): Promise<ListVolumesResult> {
  const config = resolveCluster(cluster, options);
  const { query, read, statuses } = filteredCall("volumes", options.filters);
  return callEngine(
    config,
    async (docker, signal) => {
      const body = expectBody<{ Volumes?: Dockerode.VolumeInspectInfo[] | null }>(
        await dialEngine(docker, "/volumes", signal, { query }),
        "object",
        config,
      );
      return { Volumes: (body.Volumes ?? []).map(normalizeVolume).sort(byName) };
    },
    { ...options, read, ...(statuses ? { statuses } : {}) },
  );
}

/** The engine's inspect body of one volume, normalised as D5 says (D8); throws `VOLUME_NOT_FOUND`. */
export async function inspectVolume(input: ItemRef, options: CoreOptions): Promise<VolumeItem> {
  return normalizeVolume(
    (await inspectObject("volume", input, options)) as Dockerode.VolumeInspectInfo,
  );
}

/** Order of items by `Name`, as the docker CLI lists volumes and networks. */
export function byName(a: { Name: string }, b: { Name: string }): number {
  return a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0;
}

/** D5: a null `Labels` becomes `{}`; `CreatedAt` becomes UTC with a `Z`, to the second. */
export function normalizeVolume(
  volume: Dockerode.VolumeInspectInfo & { CreatedAt?: string },
): VolumeItem {
  const normalized: VolumeItem = { ...volume, Labels: volume.Labels ?? {} };
  if (volume.CreatedAt) normalized.CreatedAt = toUtcSeconds(volume.CreatedAt);
  return normalized;
}

/** `2026-11-21T06:00:03+01:00` → `2026-11-21T05:00:03Z`; anything unparsable is left as it is. */
export function toUtcSeconds(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
