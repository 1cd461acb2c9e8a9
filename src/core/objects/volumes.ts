import { compareStrings } from "../compare.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import type { Override } from "../json.ts";
import type { VolumeItem } from "./engine-types.ts";
import { filteredCall, type ListOptions } from "../engine/filters.ts";
import { inspectObject } from "./objects.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "../engine/fleet.ts";

export type { VolumeItem } from "./engine-types.ts";

/** A volume as the engine sends it: `Labels` may be null, `CreatedAt` have an offset. */
export type EngineVolume = Override<VolumeItem, { Labels: VolumeItem["Labels"] | null }>;

/** Body of `/list/:cluster/volumes`, with nothing beside `Volumes`. */
export interface ListVolumesResult {
  Volumes: VolumeItem[];
}

/**
 * Every volume of a cluster (docs/http-interface.md, "GET /list/:cluster/volumes"), or those
 * docker's filters keep, sorted by name as `docker volume ls` shows them: the engine answers in
 * no stable order. `cluster` is an id or a name.
 * @example
 * ```ts
 * const { Volumes } = await listVolumes("prod", { fleet }); // GET /list/prod/volumes
 * ```
 */
export async function listVolumes(
  cluster: string,
  options: ListOptions,
): Promise<ListVolumesResult> {
  const config = resolveCluster(cluster, options);
  const { query, statuses } = filteredCall(options.filters);
  return callEngine(
    config,
    async (engine, signal) => {
      const body = expectBody<{ Volumes?: EngineVolume[] | null }>(
        await engine.get("/volumes", signal, { query }),
        "object",
        config,
      );
      return { Volumes: (body.Volumes ?? []).map(normalizeVolume).sort(byName) };
    },
    {
      ...options,
      read: { kind: "volumes", filters: options.filters },
      ...(statuses ? { statuses } : {}),
    },
  );
}

/**
 * The engine's inspect body of one volume, normalised as the list's items are; throws
 * `VOLUME_NOT_FOUND` (docs/http-interface.md, "GET /detail/:cluster/volume/:volumeName").
 * @example
 * ```ts
 * const volume = await inspectVolume({ cluster: "prod", name: "data" }, { fleet });
 * ```
 */
export async function inspectVolume(input: ItemRef, options: CoreOptions): Promise<VolumeItem> {
  return normalizeVolume((await inspectObject("volume", input, options)) as EngineVolume);
}

/** Order of items by `Name`, as the docker CLI lists volumes and networks. */
export function byName(a: { Name: string }, b: { Name: string }): number {
  return compareStrings(a.Name, b.Name);
}

/**
 * A null `Labels` becomes `{}`; `CreatedAt` becomes UTC with a `Z`, to the second
 * (docs/http-interface.md, "GET /list/:cluster/volumes").
 */
export function normalizeVolume(volume: EngineVolume): VolumeItem {
  const normalized: VolumeItem = { ...volume, Labels: volume.Labels ?? {} };
  if (volume.CreatedAt) normalized.CreatedAt = toUtcSeconds(volume.CreatedAt);
  return normalized;
}

/** `2026-11-21T06:00:03+01:00` → `2026-11-21T05:00:03Z`; anything unparsable is left as it is. */
export function toUtcSeconds(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
