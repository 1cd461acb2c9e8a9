// The route table of the server, made of the operation entries (operations/table.ts): each
// entry's route with its query parameters as the OpenAPI document and the checks take them.
import type { ApiRoute } from "./api-route.ts";
import { queryParam, type QueryParam } from "../operations/input-schema.ts";
import { EVENT_ID } from "../core/clusters/events.ts";
import { routesOf } from "../operations/operation.ts";
import { OPERATIONS } from "../operations/table.ts";

/** What an EventSource sends back when it reconnects: the stream resumes after that event. */
const LAST_EVENT_ID: QueryParam = {
  description:
    "The id of the last event received (its timeNano): the stream resumes after it, " +
    "in place of since",
  schema: { type: "string", pattern: EVENT_ID.source, maxLength: 19 },
};

/**
 * The routes of the interface (docs/http-interface.md, "Routes"), but for `/healthz`,
 * `/openapi.json` and `/metrics`, which the app serves itself.
 */
export const API_ROUTES: ApiRoute[] = routesOf(OPERATIONS).map(({ query, ...route }) => ({
  ...route,
  ...(route.path === "/events" ? { headers: { "Last-Event-ID": LAST_EVENT_ID } } : {}),
  ...(query
    ? {
        input: query,
        query: Object.fromEntries(
          Object.entries(query).map(([name, decl]) => [name, queryParam(decl)]),
        ),
      }
    : {}),
}));
