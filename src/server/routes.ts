// The route table of the server, made of the operation entries (operations/table.ts): each
// entry's route with its query parameters as the OpenAPI document and the checks take them.
import type { ApiRoute } from "./api-route.ts";
import { queryParam } from "./query-params.ts";
import { routesOf } from "../operations/operation.ts";
import { OPERATIONS } from "../operations/table.ts";

/**
 * The routes of the interface (docs/http-interface.md, "Routes"), but for `/healthz`,
 * `/openapi.json` and `/metrics`, which the app serves itself.
 */
export const API_ROUTES: ApiRoute[] = routesOf(OPERATIONS).map(({ query, ...route }) => ({
  ...route,
  ...(query
    ? {
        query: Object.fromEntries(
          Object.entries(query).map(([name, decl]) => [name, queryParam(decl)]),
        ),
      }
    : {}),
}));
