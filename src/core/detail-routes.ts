/** An entry of the `/detail` index (docs/http-interface.md, "GET /detail"). */
export interface RouteInfo {
  path: string;
  methods: string[];
  params: string[];
}

/** Body of `/detail`. */
export interface ListDetailRoutesResult {
  routes: RouteInfo[];
}

/**
 * The index of the detail routes `paths`, with the parameters each names; no engine is asked.
 * The server gives its own routes below `/detail/`, in the order of its table, so that the index
 * never lists a route the server does not serve, nor leaves one out.
 */
export function listDetailRoutes(paths: readonly string[]): ListDetailRoutesResult {
  return {
    routes: paths.map((path) => ({
      path,
      methods: ["GET"],
      params: [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!),
    })),
  };
}
