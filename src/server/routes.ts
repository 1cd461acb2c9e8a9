import { inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listContainers } from "../core/containers.ts";
import type { ErrorCode } from "../core/errors.ts";
import { listNetworks } from "../core/networks.ts";
import type { CoreOptions } from "../core/registry.ts";
import { listDetailRoutes } from "../core/routes.ts";
import { listVolumes } from "../core/volumes.ts";

/** What a route handler gets besides its path parameters. */
export interface RouteContext extends CoreOptions {
  showSecrets: boolean;
}

/** One route of the HTTP interface; the server, the OpenAPI document and the tests read this table. */
export interface ApiRoute {
  path: string;
  summary: string;
  /** Name of the response schema in the OpenAPI document. */
  schema: string;
  /** Errors beside 401 (with a token) and 405, which every route may answer. */
  errors: ErrorCode[];
  /** Open without a token (D13). */
  public?: boolean;
  run(params: Record<string, string>, context: RouteContext): unknown;
}

const ENGINE: ErrorCode[] = ["ENGINE_UNREACHABLE", "ENGINE_ERROR", "ENGINE_TIMEOUT"];
const CLUSTER: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", ...ENGINE];

/** Routes 1 to 7 of the spec, in its order. `/healthz` and `/openapi.json` are added by the app. */
export const API_ROUTES: ApiRoute[] = [
  { path: "/list/cluster", summary: "Every registered cluster with its engine information (D3)", schema: "ClusterList", errors: [], run: (_, context) => listClusters(context) },
  {
    path: "/list/:cluster/containers",
    summary: "All containers of a cluster and the running ones (D4)",
    schema: "ContainerList",
    errors: CLUSTER,
    run: (params, context) => listContainers(params.cluster!, context),
  },
  { path: "/list/:cluster/networks", summary: "The networks of a cluster (D5)", schema: "NetworkList", errors: CLUSTER, run: (params, context) => listNetworks(params.cluster!, context) },
  { path: "/list/:cluster/volumes", summary: "The volumes of a cluster (D5)", schema: "VolumeList", errors: CLUSTER, run: (params, context) => listVolumes(params.cluster!, context) },
  { path: "/detail", summary: "The index of detail routes (spec rule 4)", schema: "RouteIndex", errors: [], run: () => listDetailRoutes() },
  {
    path: "/detail/cluster/:clusterid",
    summary: "One cluster and its engine information (D2, D3)",
    schema: "ClusterDetail",
    errors: ["INVALID_NAME", "CLUSTER_NOT_FOUND"],
    run: (params, context) => inspectCluster(params.clusterid!, context),
  },
  {
    path: "/detail/:cluster/container/:containerName",
    summary: "The engine's inspect body of one container, secrets hidden (D6, D15)",
    schema: "ContainerDetail",
    errors: [...CLUSTER, "CONTAINER_NOT_FOUND"],
    run: (params, context) => inspectContainer({ cluster: params.cluster!, name: params.containerName! }, context),
  },
];
