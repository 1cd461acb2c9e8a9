// `/list/containers?watch=true`: the container lists pushed, a snapshot then changes, as
// Kubernetes' list routes take `?watch=true` (core/containers/container-watch.ts).
import type { QueryDecl, RouteContext } from "./route.ts";
import { Streamed } from "./route.ts";
import { closed, arrayOf, ref, str } from "./schema.ts";

/** `watch`: the list as a stream of changes. */
export const WATCH_QUERY: QueryDecl = {
  kind: "boolean",
  description:
    "NDJSON: each cluster's containers (snapshot), then each one added, modified or removed, " +
    "and a cluster waiting or down, as they happen",
};

/** The lines of the watch (test/unit/body-schemas.test.ts checks them against the library's type). */
export const WATCH_SCHEMAS = {
  ContainerWatchLine: {
    oneOf: [
      closed({
        type: { const: "snapshot" },
        cluster: ref("ClusterRef"),
        containers: arrayOf(ref("Container")),
      }),
      closed({
        type: { type: "string", enum: ["added", "modified"] },
        cluster: ref("ClusterRef"),
        container: ref("Container"),
      }),
      closed({ type: { const: "removed" }, cluster: ref("ClusterRef"), id: str }),
      closed({ type: { const: "waiting" }, cluster: ref("ClusterRef") }),
      closed({ type: { const: "down" }, cluster: ref("ClusterRef"), error: ref("ErrorBody") }),
      closed({ error: ref("ErrorBody") }),
    ],
  },
} as const;

/** The watch of `/list/containers` when `watch` is true, else undefined (the list as it is). */
export async function containerWatch(context: RouteContext): Promise<Streamed | undefined> {
  const { parseBoolean, invalidQuery } = await import("../core/query.ts");
  if (!parseBoolean("watch", context.query.watch, false)) return undefined;
  for (const name of ["filter", "size"])
    if (context.query[name] !== undefined || context.lists[name]?.length)
      invalidQuery(name, "not with watch=true: a watch has every container of each cluster");
  const { watchContainers } = await import("../core/containers/container-watch.ts");
  // Compressed when asked: a snapshot of 12,000 containers is megabytes of JSON.
  return new Streamed(
    await watchContainers({ ...context, clusters: context.lists.cluster ?? [] }),
    true,
  );
}
