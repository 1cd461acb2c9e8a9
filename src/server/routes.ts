import { attachContainer } from "../core/containers/attach.ts";
import { inspectCluster, listClusters } from "../core/clusters/clusters.ts";
import {
  inspectContainer,
  listAllContainers,
  listContainers,
} from "../core/containers/containers.ts";
import { listDrift } from "../core/objects/drift.ts";
import { inspectImage, listAllImages, listImages } from "../core/objects/images.ts";
import {
  followContainerLogs,
  parseLogsQuery,
  readContainerLogs,
  TAIL,
} from "../core/containers/logs.ts";
import { inspectNetwork, listNetworks } from "../core/objects/networks.ts";
import { listProcesses, PS_ARGS } from "../core/containers/processes.ts";
import { streamEvents } from "../core/clusters/events.ts";
import { parseBoolean, parseTime } from "../core/query.ts";
import { listDetailRoutes } from "../core/detail-routes.ts";
import { readContainerStats, streamContainerStats } from "../core/containers/stats.ts";
import { inspectVolume, listVolumes } from "../core/objects/volumes.ts";
import { Streamed, type ApiRoute } from "./api-route.ts";
import {
  ACROSS,
  boolean,
  CLUSTER,
  clusters,
  CONTAINER,
  filter,
  LIST,
  listOptions,
  time,
} from "./route-params.ts";
import { DISK_USAGE_ROUTE, SELECTION_ROUTES } from "./selection-routes.ts";

const container = (params: Record<string, string>) => ({
  cluster: params.cluster!,
  name: params.containerName!,
});

/**
 * The routes of the interface (docs/http-interface.md, "Routes"), but for `/healthz`,
 * `/openapi.json` and `/metrics`, which the app serves itself.
 */
export const API_ROUTES: ApiRoute[] = [
  {
    path: "/list/cluster",
    summary: "Every registered cluster with its engine information",
    schema: "ClusterList",
    errors: [],
    run: (_, context) => listClusters(context),
  },
  {
    path: "/list/:cluster/containers",
    summary: "All containers of a cluster and the running ones",
    schema: "ContainerList",
    errors: LIST,
    query: { filter: filter("containers") },
    otherQueryIgnored: true,
    run: (params, context) => listContainers(params.cluster!, listOptions("containers", context)),
  },
  {
    path: "/list/:cluster/networks",
    summary: "The networks of a cluster",
    schema: "NetworkList",
    errors: LIST,
    query: { filter: filter("networks") },
    otherQueryIgnored: true,
    run: (params, context) => listNetworks(params.cluster!, listOptions("networks", context)),
  },
  {
    path: "/list/:cluster/volumes",
    summary: "The volumes of a cluster",
    schema: "VolumeList",
    errors: LIST,
    query: { filter: filter("volumes") },
    otherQueryIgnored: true,
    run: (params, context) => listVolumes(params.cluster!, listOptions("volumes", context)),
  },
  {
    path: "/list/:cluster/images",
    summary: "The images of a cluster, each with the number of containers that use it",
    schema: "ImageList",
    errors: LIST,
    query: { filter: filter("images") },
    run: (params, context) => listImages(params.cluster!, listOptions("images", context)),
  },
  DISK_USAGE_ROUTE,
  {
    path: "/list/containers",
    summary:
      "The containers of every cluster (or of those named), each with its cluster; clusters that failed in errors",
    schema: "AllContainerList",
    errors: ACROSS,
    query: { cluster: clusters, filter: filter("containers") },
    run: (_, context) => listAllContainers(listOptions("containers", context)),
  },
  {
    path: "/list/images",
    summary:
      "The images of every cluster (or of those named), each with its cluster; clusters that failed in errors",
    schema: "AllImageList",
    errors: ACROSS,
    query: { cluster: clusters, filter: filter("images") },
    run: (_, context) => listAllImages(listOptions("images", context)),
  },
  {
    path: "/events",
    summary:
      "The engines' events merged, each with its cluster, as NDJSON (Server-Sent Events with " +
      "Accept: text/event-stream); status lines when an engine drops out and comes back",
    schema: "EventLine",
    errors: ["INVALID_NAME", "CLUSTER_NOT_FOUND", "INVALID_QUERY"],
    query: {
      cluster: clusters,
      since: time("Events since this time (the engines keep a backlog)"),
      until: time("Events up to this time; the stream then ends"),
      filter: filter("events"),
    },
    ndjson: { when: "always", schema: "EventLine" },
    run: async (_, context) => {
      const { query } = context;
      return new Streamed(
        await streamEvents({
          ...listOptions("events", context),
          ...(query.since !== undefined ? { since: parseTime("since", query.since) } : {}),
          ...(query.until !== undefined ? { until: parseTime("until", query.until) } : {}),
        }),
      );
    },
  },
  {
    path: "/list/drift",
    summary:
      "Image references that mean different images on different clusters, and each engine's version",
    schema: "Drift",
    errors: ACROSS,
    query: { cluster: clusters },
    run: (_, context) => listDrift({ ...context, clusters: context.lists.cluster ?? [] }),
  },
  ...SELECTION_ROUTES,
  {
    path: "/detail",
    summary: "The index of detail routes",
    schema: "RouteIndex",
    errors: [],
    run: () => listDetailRoutes(),
  },
  {
    path: "/detail/cluster/:clusterid",
    summary: "One cluster and its engine information",
    schema: "ClusterDetail",
    errors: ["INVALID_NAME", "CLUSTER_NOT_FOUND"],
    run: (params, context) => inspectCluster(params.clusterid!, context),
  },
  {
    path: "/detail/:cluster/container/:containerName",
    summary: "The engine's inspect body of one container, secrets hidden",
    schema: "ContainerDetail",
    errors: CONTAINER,
    run: (params, context) => inspectContainer(container(params), context),
  },
  {
    path: "/detail/:cluster/container/:containerName/attach",
    summary: "Live output of a running container as NDJSON, read-only",
    schema: "AttachLine",
    errors: [...CONTAINER, "CONTAINER_NOT_RUNNING"],
    query: {},
    ndjson: { when: "always", schema: "AttachLine" },
    run: async (params, context) => new Streamed(await attachContainer(container(params), context)),
  },
  {
    path: "/detail/:cluster/container/:containerName/process",
    summary: "The processes of a running container, from the engine's top",
    schema: "Processes",
    errors: [...CONTAINER, "CONTAINER_NOT_RUNNING", "INVALID_QUERY"],
    query: {
      ps_args: {
        description: "Arguments of ps (default -ef)",
        schema: { type: "string", pattern: PS_ARGS.source },
      },
    },
    run: (params, context) =>
      listProcesses(container(params), {
        ...context,
        ...(context.query.ps_args !== undefined ? { psArgs: context.query.ps_args } : {}),
      }),
  },
  {
    path: "/detail/:cluster/container/:containerName/logs",
    summary: "Log lines of a container; NDJSON with follow=true",
    schema: "LogLines",
    errors: [...CONTAINER, "INVALID_QUERY"],
    query: {
      tail: {
        description:
          "Last lines, or all (default 100); an unfollowed read over 16 MiB (of output or of JSON) is INVALID_QUERY",
        schema: { type: "string", pattern: TAIL.source },
      },
      since: time("From this time"),
      until: time("Up to this time"),
      stream: {
        description: "stdout, stderr or both (default both)",
        schema: { type: "string", enum: ["stdout", "stderr", "both"] },
      },
      timestamps: boolean("Each line's time from the engine"),
      follow: boolean(
        "Stream new lines as NDJSON until the client leaves, the container stops or the server shuts down",
      ),
    },
    ndjson: { when: "follow", schema: "LogLine" },
    run: async (params, context) => {
      const query = parseLogsQuery(context.query);
      return query.follow
        ? new Streamed(await followContainerLogs(container(params), { ...context, query }))
        : readContainerLogs(container(params), { ...context, query });
    },
  },
  {
    path: "/detail/:cluster/container/:containerName/stats",
    summary: "One stats sample with a docker stats summary; NDJSON with stream=true",
    schema: "StatsSample",
    errors: [...CONTAINER, "INVALID_QUERY"],
    query: { stream: boolean("One object per engine sample, as NDJSON") },
    ndjson: { when: "stream", schema: "StatsSample" },
    run: async (params, context) =>
      parseBoolean("stream", context.query.stream, false)
        ? new Streamed(await streamContainerStats(container(params), context))
        : readContainerStats(container(params), context),
  },
  {
    path: "/detail/:cluster/image/:imageName",
    summary: "The engine's inspect body of one image; the reference raw or percent-encoded",
    schema: "ImageDetail",
    errors: [...CLUSTER, "IMAGE_NOT_FOUND", "AMBIGUOUS_NAME"],
    rest: true,
    run: (params, context) =>
      inspectImage({ cluster: params.cluster!, name: params.imageName! }, context),
  },
  {
    path: "/detail/:cluster/volume/:volumeName",
    summary:
      "The engine's inspect body of one volume, Labels always an object and CreatedAt in UTC",
    schema: "Volume",
    errors: [...CLUSTER, "VOLUME_NOT_FOUND"],
    run: (params, context) =>
      inspectVolume({ cluster: params.cluster!, name: params.volumeName! }, context),
  },
  {
    path: "/detail/:cluster/network/:networkName",
    summary: "The engine's inspect body of one network",
    schema: "Network",
    errors: [...CLUSTER, "NETWORK_NOT_FOUND", "AMBIGUOUS_NAME"],
    run: (params, context) =>
      inspectNetwork({ cluster: params.cluster!, name: params.networkName! }, context),
  },
];
