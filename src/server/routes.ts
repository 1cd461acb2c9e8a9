import { attachContainer } from "../core/attach.ts";
import { inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listContainers } from "../core/containers.ts";
import type { ErrorCode } from "../core/errors.ts";
import { inspectImage } from "../core/images.ts";
import { followContainerLogs, parseLogsQuery, readContainerLogs } from "../core/logs.ts";
import { inspectNetwork, listNetworks } from "../core/networks.ts";
import { listProcesses } from "../core/processes.ts";
import { parseBoolean, type QueryInput } from "../core/query.ts";
import type { CoreOptions } from "../core/registry.ts";
import { listDetailRoutes } from "../core/routes.ts";
import { readContainerStats, streamContainerStats } from "../core/stats.ts";
import { inspectVolume, listVolumes } from "../core/volumes.ts";

/** What a route handler gets besides its path parameters. */
export interface RouteContext extends CoreOptions {
  showSecrets: boolean;
  /** The query string, one value per name. */
  query: QueryInput;
}

/** A body sent as NDJSON, one object a line, as the items come (`follow`, `stream`, attach). */
export class Streamed {
  constructor(readonly items: AsyncGenerator<unknown>) {}
}

/** One route of the HTTP interface; the server, the OpenAPI document and the tests read this table. */
export interface ApiRoute {
  path: string;
  summary: string;
  /** Name of the response schema in the OpenAPI document. */
  schema: string;
  /** Errors beside 401 (with a token) and 405, which every route may answer. */
  errors: ErrorCode[];
  /** Query parameters it reads; any other is `INVALID_QUERY`. Unset: the query is ignored. */
  query?: Record<string, string>;
  /** The body is NDJSON of `schema` items: `always`, or when the query parameter `when` is true. */
  ndjson?: { when: "always" | string; schema: string };
  /** The last parameter takes the rest of the path, `/` included (image references). */
  rest?: boolean;
  /** Open without a token (D13). */
  public?: boolean;
  run(params: Record<string, string>, context: RouteContext): unknown;
}

const ENGINE: ErrorCode[] = ["ENGINE_UNREACHABLE", "ENGINE_ERROR", "ENGINE_TIMEOUT"];
const CLUSTER: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", ...ENGINE];
const CONTAINER: ErrorCode[] = [...CLUSTER, "CONTAINER_NOT_FOUND"];
const container = (params: Record<string, string>) => ({ cluster: params.cluster!, name: params.containerName! });

/** The spec's routes 1 to 7 and the sub-routes of D8, in the spec's order. */
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
    errors: CONTAINER,
    run: (params, context) => inspectContainer(container(params), context),
  },
  {
    path: "/detail/:cluster/container/:containerName/attach",
    summary: "Live output of a running container as NDJSON, read-only (D8)",
    schema: "AttachLine",
    errors: [...CONTAINER, "CONTAINER_NOT_RUNNING"],
    query: {},
    ndjson: { when: "always", schema: "AttachLine" },
    run: async (params, context) => new Streamed(await attachContainer(container(params), context)),
  },
  {
    path: "/detail/:cluster/container/:containerName/process",
    summary: "The processes of a running container, from the engine's top (D8)",
    schema: "Processes",
    errors: [...CONTAINER, "CONTAINER_NOT_RUNNING", "INVALID_QUERY"],
    query: { ps_args: "Arguments of ps (default -ef)" },
    run: (params, context) => listProcesses(container(params), { ...context, ...(context.query.ps_args !== undefined ? { psArgs: context.query.ps_args } : {}) }),
  },
  {
    path: "/detail/:cluster/container/:containerName/logs",
    summary: "Log lines of a container; NDJSON with follow=true (D8)",
    schema: "LogLines",
    errors: [...CONTAINER, "INVALID_QUERY"],
    query: {
      tail: "Last lines, or all (default 100); an unfollowed read over 16 MiB (of output or of JSON) is INVALID_QUERY",
      since: "Unix seconds, RFC 3339, or a duration such as 10m",
      until: "Unix seconds, RFC 3339, or a duration such as 10m",
      stream: "stdout, stderr or both (default both)",
      timestamps: "true: each line's time from the engine",
      follow: "true: stream new lines as NDJSON until the client leaves or the container stops",
    },
    ndjson: { when: "follow", schema: "LogLine" },
    run: async (params, context) => {
      const query = parseLogsQuery(context.query);
      return query.follow ? new Streamed(await followContainerLogs(container(params), { ...context, query })) : readContainerLogs(container(params), { ...context, query });
    },
  },
  {
    path: "/detail/:cluster/container/:containerName/stats",
    summary: "One stats sample with a docker stats summary; NDJSON with stream=true (D8)",
    schema: "StatsSample",
    errors: [...CONTAINER, "INVALID_QUERY"],
    query: { stream: "true: one object per engine sample, as NDJSON" },
    ndjson: { when: "stream", schema: "StatsSample" },
    run: async (params, context) =>
      parseBoolean("stream", context.query.stream, false) ? new Streamed(await streamContainerStats(container(params), context)) : readContainerStats(container(params), context),
  },
  {
    path: "/detail/:cluster/image/:imageName",
    summary: "The engine's inspect body of one image; the reference raw or percent-encoded (D7, D8)",
    schema: "ImageDetail",
    errors: [...CLUSTER, "IMAGE_NOT_FOUND"],
    rest: true,
    run: (params, context) => inspectImage({ cluster: params.cluster!, name: params.imageName! }, context),
  },
  {
    path: "/detail/:cluster/volume/:volumeName",
    summary: "The engine's inspect body of one volume, normalised as D5 says (D8)",
    schema: "Volume",
    errors: [...CLUSTER, "VOLUME_NOT_FOUND"],
    run: (params, context) => inspectVolume({ cluster: params.cluster!, name: params.volumeName! }, context),
  },
  {
    path: "/detail/:cluster/network/:networkName",
    summary: "The engine's inspect body of one network (D8)",
    schema: "Network",
    errors: [...CLUSTER, "NETWORK_NOT_FOUND"],
    run: (params, context) => inspectNetwork({ cluster: params.cluster!, name: params.networkName! }, context),
  },
];
