// The lines of `/list/containers?watch=true`: each cluster's containers, then what changes.
import { arrayOf, closed, ref, str } from "../schema.ts";

/** The lines of `/list/containers?watch=true` (watch.ts), which its route names for the document. */
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
      closed({ type: { const: "synced" } }),
    ],
  },
} as const;
