// The JSON Schemas of the bodies of the routes over many containers and of disk usage
// (selection-routes.ts), for the OpenAPI document beside those of openapi-schemas.ts.
import { arrayOf, int, nullable, obj, ref, str, type Schema } from "./openapi-schemas.ts";

const container = obj({ id: str, name: str }, undefined, false);
/** A cluster, or (with `container`) a container, that could not be read. */
const selectionError = obj(
  { cluster: ref("ClusterRef"), container, error: ref("ErrorBody") },
  ["cluster", "error"],
  false,
);
const streamName = { type: "string", enum: ["stdout", "stderr"] };
const number = { type: "number", minimum: 0 };

export const SELECTION_SCHEMAS: Record<string, Schema> = {
  DiskUsage: obj(
    {
      summary: arrayOf(
        obj(
          {
            type: {
              type: "string",
              enum: ["Images", "Containers", "Local Volumes", "Build Cache"],
            },
            total: int,
            active: int,
            size: number,
            reclaimable: number,
          },
          undefined,
          false,
        ),
      ),
      raw: { type: "object", description: "The engine's GET /system/df body" },
    },
    undefined,
    false,
  ),
  AllDiskUsage: obj(
    {
      clusters: arrayOf({ allOf: [ref("DiskUsage"), obj({ cluster: ref("ClusterRef") })] }),
      errors: arrayOf(ref("ClusterError")),
    },
    undefined,
    false,
  ),
  MergedLogLine: obj(
    {
      cluster: ref("ClusterRef"),
      container,
      stream: streamName,
      time: nullable("string"),
      text: str,
    },
    undefined,
    false,
  ),
  MergedLogLines: obj(
    { lines: arrayOf(ref("MergedLogLine")), errors: arrayOf(selectionError) },
    undefined,
    false,
  ),
  MergedLogItem: {
    oneOf: [
      ref("MergedLogLine"),
      obj(
        {
          cluster: ref("ClusterRef"),
          container,
          status: {
            type: "string",
            enum: ["started", "stopped", "joined", "failed", "disconnected", "reconnected"],
          },
          time: str,
          error: ref("ErrorBody"),
        },
        ["cluster", "status", "time"],
        false,
      ),
      obj({ error: ref("ErrorBody") }, undefined, false),
    ],
  },
  AllStats: obj(
    {
      stats: arrayOf(
        obj(
          {
            cluster: ref("ClusterRef"),
            container,
            summary: { $ref: "#/components/schemas/StatsSample/properties/summary" },
          },
          undefined,
          false,
        ),
      ),
      errors: arrayOf(selectionError),
    },
    undefined,
    false,
  ),
};
