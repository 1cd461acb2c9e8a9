import type Dockerode from "dockerode";
import { callEngine, expectBody, withSignal } from "./engine.ts";
import { checkName } from "./names.ts";
import { resolveCluster, type CoreOptions } from "./registry.ts";

/** A volume as docklens shows it: `Labels` always an object, `CreatedAt` in UTC (D5). */
export type VolumeItem = Omit<Dockerode.VolumeInspectInfo, "Labels"> & { Labels: Record<string, string>; CreatedAt?: string };

/** Body of `/list/:cluster/volumes` (D5), with nothing beside `Volumes`. */
export interface ListVolumesResult {
  Volumes: VolumeItem[];
}

/**
 * Every volume of a cluster (D5), sorted by name as `docker volume ls` shows them: the engine
 * answers in no stable order. `cluster` is an id or a name (D1).
 */
export async function listVolumes(cluster: string, options: CoreOptions): Promise<ListVolumesResult> {
  const config = resolveCluster(cluster, options);
  return callEngine(
    config,
    async (docker, signal) => {
      const body = expectBody<{ Volumes?: Dockerode.VolumeInspectInfo[] | null }>(await docker.listVolumes({ abortSignal: signal }), "object", config);
      return { Volumes: (body.Volumes ?? []).map(normalizeVolume).sort(byName) };
    },
    { ...options, read: "volumes" },
  );
}

/** Input of {@link inspectVolume} and `inspectNetwork`. */
export interface InspectNamedInput {
  /** Cluster id or name (D1). */
  cluster: string;
  /** The volume's or network's name (a network also by id). */
  name: string;
}

/** The engine's inspect body of one volume, normalised as D5 says (D8); throws `VOLUME_NOT_FOUND`. */
export async function inspectVolume(input: InspectNamedInput, options: CoreOptions): Promise<VolumeItem> {
  const cluster = resolveCluster(input.cluster, options);
  const name = checkName("volume", input.name);
  const body = await callEngine(cluster, (docker, signal) => withSignal(docker.getVolume(name), "inspect", signal), {
    ...options,
    read: `volume:${name}`,
    statuses: { 404: { code: "VOLUME_NOT_FOUND", message: `volume ${JSON.stringify(input.name)} not found in cluster "${cluster.name}"` } },
  });
  return normalizeVolume(expectBody<Dockerode.VolumeInspectInfo>(body, "object", cluster));
}

/** Order of items by `Name`, as the docker CLI lists volumes and networks. */
export function byName(a: { Name: string }, b: { Name: string }): number {
  return a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0;
}

/** D5: a null `Labels` becomes `{}`; `CreatedAt` becomes UTC with a `Z`, to the second. */
export function normalizeVolume(volume: Dockerode.VolumeInspectInfo & { CreatedAt?: string }): VolumeItem {
  const normalized: VolumeItem = { ...volume, Labels: volume.Labels ?? {} };
  if (volume.CreatedAt) normalized.CreatedAt = toUtcSeconds(volume.CreatedAt);
  return normalized;
}

/** `2026-11-21T06:00:03+01:00` → `2026-11-21T05:00:03Z`; anything unparsable is left as it is. */
export function toUtcSeconds(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
