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

/** The nine detail routes, in the order of docs/http-interface.md, "GET /detail". */
export const DETAIL_ROUTES: readonly string[] = [
  "/detail/cluster/:clusterid",
  "/detail/:cluster/container/:containerName",
  "/detail/:cluster/container/:containerName/attach",
  "/detail/:cluster/container/:containerName/process",
  "/detail/:cluster/container/:containerName/logs",
  "/detail/:cluster/container/:containerName/stats",
  "/detail/:cluster/image/:imageName",
  "/detail/:cluster/volume/:volumeName",
  "/detail/:cluster/network/:networkName",
];

/** The index of detail sub-routes; no engine is asked. */
export function listDetailRoutes(): ListDetailRoutesResult {
  return {
    routes: DETAIL_ROUTES.map((path) => ({
      path,
      methods: ["GET"],
      params: [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!),
    })),
  };
}
