// The detail of one item (a cluster, a container, an image, a volume, a network): each entry its
// route and the command that mirrors it; and the order of the detail routes, a container's
// streams (container-streams.ts, container-stats.ts) among them.
import type { Operation } from "./operation.ts";
import { commandsOf } from "./operation.ts";
import {
  CLUSTER_ARG,
  CLUSTER_ERRORS,
  CONTAINER_ERRORS,
  containerOf,
  defineCommand,
  itemArgs,
  itemDetail,
} from "./parts.ts";
import { containerStats } from "./container-stats.ts";
import { attach, containerLogs, processes } from "./container-streams.ts";

const containers = () => import("../core/containers/containers.ts");
const images = itemDetail(
  "imageName",
  async () => (await import("../core/objects/images.ts")).inspectImage,
);
const volumes = itemDetail(
  "volumeName",
  async () => (await import("../core/objects/volumes.ts")).inspectVolume,
);
const networks = itemDetail(
  "networkName",
  async () => (await import("../core/objects/networks.ts")).inspectNetwork,
);

const cluster: Operation = {
  route: {
    path: "/detail/cluster/:clusterid",
    summary: "One cluster and its engine information",
    schema: "ClusterDetail",
    errors: ["INVALID_NAME", "CLUSTER_NOT_FOUND"],
    run: async (params, context) =>
      (await import("../core/clusters/clusters.ts")).inspectCluster(params.clusterid!, context),
  },
  command: defineCommand({
    name: ["detail", "cluster"],
    description: "a cluster and its engine information",
    args: [CLUSTER_ARG],
    examples: [],
    call: async ([ref], _, coreOptions) =>
      (await import("../core/clusters/clusters.ts")).inspectCluster(ref, coreOptions),
    // The body is printed either way; an engine that failed still makes the command fail.
    hooks: () => ({ failure: (result) => result.error }),
  }),
};

const containerDetail: Operation = {
  route: {
    path: "/detail/:cluster/container/:containerName",
    summary: "The engine's inspect body of one container, secrets hidden",
    schema: "ContainerDetail",
    errors: CONTAINER_ERRORS,
    run: async (params, context) =>
      (await containers()).inspectContainer(containerOf(params), context),
  },
  command: defineCommand({
    name: ["detail", "container"],
    description: "what the engine knows of one container",
    args: [CLUSTER_ARG, ["<name>", "container name, id or id prefix"]],
    options: [
      { flags: "--show-secrets", description: "show environment values that look like secrets" },
    ],
    examples: [],
    call: async (args, options, coreOptions) =>
      (await containers()).inspectContainer(itemArgs(args), {
        ...coreOptions,
        ...(options.showSecrets ? { showSecrets: true } : {}),
      }),
  }),
};

const image: Operation = {
  route: {
    path: "/detail/:cluster/image/:imageName",
    summary: "The engine's inspect body of one image; the reference raw or percent-encoded",
    schema: "ImageDetail",
    errors: [...CLUSTER_ERRORS, "IMAGE_NOT_FOUND", "AMBIGUOUS_NAME"],
    rest: true,
    run: images.run,
  },
  command: defineCommand({
    name: ["detail", "image"],
    description: "what the engine knows of one image",
    args: [CLUSTER_ARG, ["<image>", "reference (local/app:1) or id"]],
    examples: [],
    call: images.call,
  }),
};

const volume: Operation = {
  route: {
    path: "/detail/:cluster/volume/:volumeName",
    summary:
      "The engine's inspect body of one volume, Labels always an object and CreatedAt in UTC",
    schema: "Volume",
    errors: [...CLUSTER_ERRORS, "VOLUME_NOT_FOUND"],
    run: volumes.run,
  },
  command: defineCommand({
    name: ["detail", "volume"],
    description: "what the engine knows of one volume",
    args: [CLUSTER_ARG, ["<volume>", "volume name"]],
    examples: [],
    call: volumes.call,
  }),
};

const network: Operation = {
  route: {
    path: "/detail/:cluster/network/:networkName",
    summary: "The engine's inspect body of one network",
    schema: "Network",
    errors: [...CLUSTER_ERRORS, "NETWORK_NOT_FOUND", "AMBIGUOUS_NAME"],
    run: networks.run,
  },
  command: defineCommand({
    name: ["detail", "network"],
    description: "what the engine knows of one network",
    args: [CLUSTER_ARG, ["<network>", "network name or id"]],
    examples: [],
    call: networks.call,
  }),
};

/** The detail operations, in the order of the route table (docs/http-interface.md, "GET /detail"). */
export const DETAIL_OPERATIONS: Operation[] = [
  cluster,
  containerDetail,
  attach,
  processes,
  containerLogs,
  containerStats,
  image,
  volume,
  network,
];

/**
 * Their commands in the order the help lists them, which is not the route table's: the items'
 * details first (`detail <item>`), then a container's output, what people reach for first.
 */
export const DETAIL_COMMANDS = commandsOf([
  cluster,
  containerDetail,
  image,
  volume,
  network,
  containerLogs,
  containerStats,
  processes,
  attach,
]);
