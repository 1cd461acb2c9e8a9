// The bodies of the many-container routes (operations/selection.ts): disk usage, merged logs,
// stats of many containers.
import { arrayOf, closed, counts, int, nullable, ref, str } from "../schema.ts";

const container = closed({ id: str, name: str });
/** A cluster, or (with `container`) a container, that could not be read. */
const selectionError = closed({ cluster: ref("ClusterRef"), container, error: ref("ErrorBody") }, [
  "cluster",
  "error",
]);
const mergedLine = closed({
  cluster: ref("ClusterRef"),
  container,
  stream: { type: "string", enum: ["stdout", "stderr"] },
  time: nullable("string"),
  text: str,
});
/** How many containers a selection matched and how many are read (`newest` cuts it to the bound). */
const selectionCount = closed({ matched: int, containers: int });
const summaryRow = closed({
  type: { type: "string", enum: ["Images", "Containers", "Local Volumes", "Build Cache"] },
  total: int,
  active: int,
  ...counts(["size", "reclaimable"]),
});

const diskUsage = {
  summary: arrayOf(summaryRow),
  raw: { type: "object", description: "The engine's GET /system/df body" },
} as const;

/** The bodies of the many-container routes (operations/selection.ts), which their routes name for the document. */
export const SELECTION_SCHEMAS = {
  DiskUsage: closed(diskUsage),
  AllDiskUsage: closed({
    clusters: arrayOf(closed({ cluster: ref("ClusterRef"), ...diskUsage })),
    errors: arrayOf(ref("ClusterError")),
  }),
  MergedLogLine: mergedLine,
  MergedLogLines: closed(
    { lines: arrayOf(mergedLine), errors: arrayOf(selectionError), selection: selectionCount },
    ["lines", "errors"],
  ),
  MergedLogItem: {
    oneOf: [
      mergedLine,
      closed({ selection: selectionCount }),
      closed(
        {
          cluster: ref("ClusterRef"),
          container,
          status: {
            type: "string",
            enum: [
              "started",
              "stopped",
              "joined",
              "failed",
              "retrying",
              "disconnected",
              "reconnected",
            ],
          },
          time: str,
          error: ref("ErrorBody"),
        },
        ["cluster", "status", "time"],
      ),
    ],
  },
  AllStats: closed({
    stats: arrayOf(
      closed({
        cluster: ref("ClusterRef"),
        container,
        summary: ref("StatsSummary"),
      }),
    ),
    errors: arrayOf(selectionError),
  }),
} as const;
