// The bodies of the server's own routes, and of the /detail index (table.ts).
import { arrayOf, obj, str, type Schema } from "../schema.ts";

/** `/healthz`, `/openapi.json`, `/metrics` and `/detail`. */
export const SERVER_SCHEMAS = {
  Health: obj({ status: { const: "ok" } }),
  OpenApi: { type: "object", description: "This document" },
  Metrics: { type: "string", description: "Prometheus text exposition format 0.0.4" },
  RouteIndex: obj({
    routes: arrayOf(obj({ path: str, methods: arrayOf(str), params: arrayOf(str) })),
  }),
} as const satisfies Record<string, Schema>;
