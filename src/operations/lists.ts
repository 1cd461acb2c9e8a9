// The lists of one cluster, and the clusters: each entry its route and the command that mirrors
// it (words, arguments, options, examples, the core call and the view that prints the result).
import type { ListClustersResult } from "../core/clusters/clusters.ts";
import type { Operation } from "./operation.ts";
import {
  acrossHooks,
  ALL_IMAGES_QUERY,
  CLUSTER_ARG,
  clusterList,
  CONTAINER_LIST_INPUT,
  containerListOptions,
  defineCommand,
  filterOption,
  filterQuery,
  LIST_ERRORS,
  SIZE_OPTION,
  WATCH_OPTION,
  wantsSize,
} from "./parts.ts";
import { defineRoute } from "./route.ts";

const clusters = () => import("../core/clusters/clusters.ts");
const containers = () => import("../core/containers/containers.ts");
const IMAGE_LIST_INPUT = { filter: filterQuery("images"), all: ALL_IMAGES_QUERY };
const networks = clusterList(
  "networks",
  async () => (await import("../core/objects/networks.ts")).listNetworks,
);
const volumes = clusterList(
  "volumes",
  async () => (await import("../core/objects/volumes.ts")).listVolumes,
);

/** The body of `clusters`, and for its table the number of unhealthy containers by cluster id. */
export type ClustersTable = ListClustersResult & { unhealthy?: Map<number, number> };

/** The lists of one cluster, and `clusters`, in the order of the route table. */
export const LIST_OPERATIONS: Operation[] = [
  {
    route: {
      path: "/list/cluster",
      summary: "Every registered cluster with its engine information",
      schema: "ClusterList",
      errors: [],
      run: async (_, context) => (await clusters()).listClusters(context),
    },
    command: defineCommand({
      name: ["clusters"],
      description: "list the clusters with their engine information",
      options: [WATCH_OPTION],
      examples: [
        ["docklens clusters"],
        [
          "docklens clusters --json | jq -r '.clusters[] | select(.error) | .name'",
          "clusters whose engine fails",
        ],
        ["docklens clusters --watch"],
      ],
      call: async (_, options, coreOptions): Promise<ClustersTable> => {
        const { listClusters } = await clusters();
        // The table counts unhealthy containers too: one more fan-out, which the JSON body (the
        // route's) does without.
        if (options.json) return listClusters(coreOptions);
        const [body, sick] = await Promise.all([
          listClusters(coreOptions),
          (await containers()).listAllContainers({
            ...coreOptions,
            filters: { health: ["unhealthy"] },
          }),
        ]);
        const unhealthy = new Map<number, number>();
        for (const { cluster } of sick.containers)
          unhealthy.set(cluster.id, (unhealthy.get(cluster.id) ?? 0) + 1);
        return { ...body, unhealthy };
      },
      // Each record of a failed engine says why: the rule of every command across clusters.
      hooks: () =>
        acrossHooks([], (result: ClustersTable) =>
          result.clusters.flatMap(({ id, name, error }) =>
            error ? [{ cluster: { id, name }, error }] : [],
          ),
        ),
    }),
  },
  {
    route: defineRoute({
      path: "/list/:cluster/containers",
      summary: "All containers of a cluster and the running ones",
      schema: "ContainerList",
      errors: LIST_ERRORS,
      query: CONTAINER_LIST_INPUT,
      otherQueryIgnored: true,
      run: async (params, context) =>
        (await containers()).listContainers(params.cluster!, containerListOptions(context)),
    }),
    command: defineCommand({
      name: ["containers"],
      description: "list the containers of a cluster, stopped ones included",
      args: [CLUSTER_ARG],
      options: [
        filterOption("containers"),
        WATCH_OPTION,
        {
          flags: "--running",
          description: "only running containers (the JSON body always holds both lists)",
        },
        SIZE_OPTION,
        {
          flags: "--format <template>",
          description:
            "docker's --format: a Go template a row ({{.Names}}, {{json .}}), json, or table TEMPLATE",
        },
      ],
      examples: [
        ["docklens containers local"],
        ["docklens containers 2 --running", "the cluster with id 2"],
        ["docklens containers local --filter label=app=web"],
        ["docklens containers local --json | jq -r '.running[].Names[0]'"],
      ],
      input: CONTAINER_LIST_INPUT,
      call: async ([cluster], options, coreOptions, input) =>
        (await containers()).listContainers(cluster, {
          ...coreOptions,
          filters: input.filter,
          size: wantsSize(options),
        }),
    }),
  },
  {
    route: defineRoute({
      path: "/list/:cluster/networks",
      summary: "The networks of a cluster",
      schema: "NetworkList",
      errors: LIST_ERRORS,
      query: networks.input,
      otherQueryIgnored: true,
      run: networks.run,
    }),
    command: defineCommand({
      name: ["networks"],
      description: "list the networks of a cluster",
      args: [CLUSTER_ARG],
      options: [filterOption("networks")],
      examples: [
        ["docklens networks local"],
        ["docklens networks local --filter driver=bridge --json | jq -r '.networks[].Name'"],
      ],
      input: networks.input,
      call: networks.call,
    }),
  },
  {
    route: defineRoute({
      path: "/list/:cluster/volumes",
      summary: "The volumes of a cluster",
      schema: "VolumeList",
      errors: LIST_ERRORS,
      query: volumes.input,
      otherQueryIgnored: true,
      run: volumes.run,
    }),
    command: defineCommand({
      name: ["volumes"],
      description: "list the volumes of a cluster",
      args: [CLUSTER_ARG],
      options: [filterOption("volumes")],
      examples: [
        ["docklens volumes local"],
        ["docklens volumes local --filter dangling=true --json | jq -r '.Volumes[].Name'"],
      ],
      input: volumes.input,
      call: volumes.call,
    }),
  },
  // `docklens images <cluster>` (across.ts) mirrors this route when it names one cluster.
  {
    route: defineRoute({
      path: "/list/:cluster/images",
      summary: "The images of a cluster, each with the number of containers that use it",
      schema: "ImageList",
      errors: LIST_ERRORS,
      query: IMAGE_LIST_INPUT,
      run: async (params, context) =>
        (await import("../core/objects/images.ts")).listImages(params.cluster!, {
          ...context,
          filters: context.input.filter,
          all: context.input.all,
        }),
    }),
  },
];
