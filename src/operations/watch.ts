// `/list/containers?watch=true`: the container lists pushed, a snapshot then changes, as
// Kubernetes' list routes take `?watch=true` (core/containers/container-watch.ts).
import type { EngineFilters } from "../core/engine/filters.ts";
import type { FieldDecl } from "./input.ts";
import type { RouteContext } from "./route.ts";
import { Streamed } from "./route.ts";

/** `watch`: the list as a stream of changes. */
export const WATCH_QUERY = {
  kind: "boolean",
  description:
    "NDJSON: each cluster's containers (snapshot), then each one added, modified or removed, " +
    "and a cluster waiting or down, as they happen",
} as const satisfies FieldDecl;

/** The fields of `/list/containers` that the watch reads or refuses. */
interface WatchInput {
  watch?: boolean;
  cluster?: string[];
  filter?: EngineFilters;
  size?: boolean;
}

/** The watch of `/list/containers` when `watch` is true, else undefined (the list as it is). */
export async function containerWatch(
  context: RouteContext<WatchInput>,
): Promise<Streamed | undefined> {
  const { input } = context;
  if (!input.watch) return undefined;
  const { invalidInput } = await import("../core/errors.ts");
  for (const name of ["filter", "size"] as const)
    if (input[name] !== undefined)
      invalidInput(name, "not with watch=true: a watch has every container of each cluster");
  const { watchContainers } = await import("../core/containers/container-watch.ts");
  // Compressed when asked: a snapshot of 12,000 containers is megabytes of JSON.
  return new Streamed(await watchContainers({ ...context, clusters: input.cluster ?? [] }), true);
}
