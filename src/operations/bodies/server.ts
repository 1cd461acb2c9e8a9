// The bodies of the server's own routes, and of the /detail index (table.ts).
import { arrayOf, int, obj, objOptional, str, type Schema } from "../schema.ts";

/** `/healthz`, `/openapi.json`, `/metrics` and `/detail`. */
export const SERVER_SCHEMAS = {
  Health: objOptional(
    {
      status: { const: "ok" },
      history: objOptional(
        {
          recording: { type: "boolean", description: "Whether history keeps what it is given now" },
          dropped: { ...int, description: "Records it could not keep since serve started" },
          problem: { ...str, description: "Why it cannot keep records, while it cannot" },
        },
        ["problem"],
      ),
    },
    ["history"],
  ),
  OpenApi: { type: "object", description: "This document" },
  Metrics: { type: "string", description: "Prometheus text exposition format 0.0.4" },
  RouteIndex: obj({
    routes: arrayOf(obj({ path: str, methods: arrayOf(str), params: arrayOf(str) })),
  }),
} as const satisfies Record<string, Schema>;
