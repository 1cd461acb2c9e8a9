// The commands of one cluster (its lists, an item's detail, a container's streams) and `clusters`,
// as a table: each entry says its words, arguments, options and examples, the core call it makes
// and the view that prints the result.
import type { ListClustersResult } from "../core/clusters/clusters.ts";
import {
  CLUSTER_ARG,
  CONTAINER_ARG,
  defineCommand,
  filterOption,
  WATCH_OPTION,
  type ListCommandOptions,
} from "./define.ts";
import type { CommandOptions } from "./spec.ts";

interface LogsCommandOptions extends CommandOptions {
  tail: string;
  since?: string;
  until?: string;
  stream: string;
  timestamps?: boolean;
  follow?: boolean;
}

/** The flags of `docklens logs` as the query of the logs route, checked by the same code. */
function logsQuery(options: LogsCommandOptions): Record<string, string> {
  return {
    tail: options.tail,
    stream: options.stream,
    ...(options.since !== undefined ? { since: options.since } : {}),
    ...(options.until !== undefined ? { until: options.until } : {}),
    ...(options.timestamps ? { timestamps: "true" } : {}),
    ...(options.follow ? { follow: "true" } : {}),
  };
}

/** The lists of one cluster, and `clusters`. */
export const LIST_COMMANDS = [
  defineCommand<CommandOptions, ListClustersResult & { unhealthy?: Map<number, number> }>({
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
    call: async (core, _, options, o) => {
      // The table counts unhealthy containers too: one more fan-out, which the JSON body (the
      // route's) does without.
      if (options.json) return core.listClusters(o);
      const [body, sick] = await Promise.all([
        core.listClusters(o),
        core.listAllContainers({ ...o, filters: { health: ["unhealthy"] } }),
      ]);
      const unhealthy = new Map<number, number>();
      for (const { cluster } of sick.containers)
        unhealthy.set(cluster.id, (unhealthy.get(cluster.id) ?? 0) + 1);
      return { ...body, unhealthy };
    },
    view: (render) => (result, colors) =>
      render.clustersTable(result.clusters, colors, result.unhealthy),
  }),
  defineCommand({
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
    ],
    examples: [
      ["docklens containers local"],
      ["docklens containers 2 --running", "the cluster with id 2"],
      ["docklens containers local --filter label=app=web"],
      ["docklens containers local --json | jq -r '.running[].Names[0]'"],
    ],
    call: (core, [cluster], options: ListCommandOptions & { running?: boolean }, o) =>
      core.listContainers(cluster!, {
        ...o,
        filters: core.parseFilters("containers", options.filter ?? []),
      }),
    view: (render, options) => (result, colors) =>
      render.containersTable(options.running ? result.running : result.containers, colors),
  }),
  defineCommand({
    name: ["networks"],
    description: "list the networks of a cluster",
    args: [CLUSTER_ARG],
    options: [filterOption("networks")],
    examples: [
      ["docklens networks local"],
      ["docklens networks local --filter driver=bridge --json | jq -r '.networks[].Name'"],
    ],
    call: (core, [cluster], options: ListCommandOptions, o) =>
      core.listNetworks(cluster!, {
        ...o,
        filters: core.parseFilters("networks", options.filter ?? []),
      }),
    view: (render) => (result, colors) => render.networksTable(result.networks, colors),
  }),
  defineCommand({
    name: ["volumes"],
    description: "list the volumes of a cluster",
    args: [CLUSTER_ARG],
    options: [filterOption("volumes")],
    examples: [
      ["docklens volumes local"],
      ["docklens volumes local --filter dangling=true --json | jq -r '.Volumes[].Name'"],
    ],
    call: (core, [cluster], options: ListCommandOptions, o) =>
      core.listVolumes(cluster!, {
        ...o,
        filters: core.parseFilters("volumes", options.filter ?? []),
      }),
    view: (render) => (result, colors) => render.volumesTable(result.Volumes, colors),
  }),
];

/** The config, the detail of one item, and a container's logs, stats, processes and output. */
export const ITEM_COMMANDS = [
  defineCommand({
    name: ["config"],
    description: "show the config file used (or why none) and where each cluster came from",
    examples: [
      ["docklens config"],
      ["docklens config --json | jq '.clusters[] | {name, source, context}'"],
    ],
    call: (core, _, __, o) => core.describeConfig(o),
    view: (render) => render.configView,
  }),
  defineCommand({
    name: ["detail"],
    description: "inspect one item; alone, list the detail routes",
    examples: [
      ["docklens detail", "the detail routes"],
      ["docklens detail cluster local"],
      ["docklens detail container local web --json"],
      ["docklens detail image local local/busybox:1"],
    ],
    call: async (core) => core.listDetailRoutes(),
    view: (render) => render.routesTable,
  }),
  defineCommand({
    name: ["detail", "cluster"],
    description: "a cluster and its engine information",
    args: [CLUSTER_ARG],
    examples: [],
    call: (core, [cluster], _, o) => core.inspectCluster(cluster!, o),
    view: (render) => render.clusterDetail,
    // The body is printed either way; an engine that failed still makes the command fail.
    hooks: () => ({ failure: (result) => result.error }),
  }),
  defineCommand({
    name: ["detail", "container"],
    description: "what the engine knows of one container",
    args: [CLUSTER_ARG, ["<name>", "container name, id or id prefix"]],
    options: [
      { flags: "--show-secrets", description: "show environment values that look like secrets" },
    ],
    examples: [],
    call: (core, [cluster, name], options: CommandOptions & { showSecrets?: boolean }, o) =>
      core.inspectContainer(
        { cluster: cluster!, name: name! },
        { ...o, ...(options.showSecrets ? { showSecrets: true } : {}) },
      ),
    view: (render) => render.containerDetail,
  }),
  defineCommand({
    name: ["detail", "image"],
    description: "what the engine knows of one image",
    args: [CLUSTER_ARG, ["<image>", "reference (local/app:1) or id"]],
    examples: [],
    call: (core, [cluster, name], _, o) => core.inspectImage({ cluster: cluster!, name: name! }, o),
    view: (render) => render.imageDetail,
  }),
  defineCommand({
    name: ["detail", "volume"],
    description: "what the engine knows of one volume",
    args: [CLUSTER_ARG, ["<volume>", "volume name"]],
    examples: [],
    call: (core, [cluster, name], _, o) =>
      core.inspectVolume({ cluster: cluster!, name: name! }, o),
    view: (render) => render.volumeDetail,
  }),
  defineCommand({
    name: ["detail", "network"],
    description: "what the engine knows of one network",
    args: [CLUSTER_ARG, ["<network>", "network name or id"]],
    examples: [],
    call: (core, [cluster, name], _, o) =>
      core.inspectNetwork({ cluster: cluster!, name: name! }, o),
    view: (render) => render.networkDetail,
  }),
  defineCommand({
    name: ["logs"],
    description: "print the logs of a container, like docker logs",
    args: [CLUSTER_ARG, CONTAINER_ARG],
    options: [
      { flags: "-n, --tail <lines>", description: 'last lines to show, or "all"', default: "100" },
      {
        flags: "--since <time>",
        description: "from this time: Unix seconds, RFC 3339, or a duration like 10m",
      },
      { flags: "--until <time>", description: "up to this time, same forms" },
      { flags: "--stream <stream>", description: "stdout, stderr or both", default: "both" },
      { flags: "-t, --timestamps", description: "show each line's time" },
      {
        flags: "-f, --follow",
        description: "keep printing new lines until Ctrl-C or the container stops",
      },
    ],
    examples: [
      ["docklens logs local web -n 20"],
      ["docklens logs local web --since 2026-11-22T10:00 --until 10m"],
      ["docklens logs local web -f --stream stderr"],
    ],
    call: async (core, [cluster, name], options: LogsCommandOptions, o) => {
      const query = core.parseLogsQuery(logsQuery(options));
      const ref = { cluster: cluster!, name: name! };
      return query.follow
        ? core.followContainerLogs(ref, { ...o, query })
        : core.readContainerLogs(ref, { ...o, query });
    },
    view: (render) => render.logsView,
  }),
  defineCommand({
    name: ["stats"],
    description: "show a container's resource use, like docker stats",
    args: [CLUSTER_ARG, CONTAINER_ARG],
    options: [{ flags: "--stream", description: "refresh with every engine sample until Ctrl-C" }],
    examples: [
      ["docklens stats local web"],
      ["docklens stats local web --json | jq .summary.memoryPercent"],
    ],
    call: (core, [cluster, name], options: CommandOptions & { stream?: boolean }, o) => {
      const ref = { cluster: cluster!, name: name! };
      return options.stream ? core.streamContainerStats(ref, o) : core.readContainerStats(ref, o);
    },
    view: (render, options) => render.createStatsView(Boolean(options.stream)),
  }),
  defineCommand({
    name: ["top"],
    description: "list the processes of a running container, like docker top",
    args: [CLUSTER_ARG, CONTAINER_ARG],
    options: [
      {
        flags: "--ps-args <args>",
        description: "arguments of ps on the engine's host",
        default: "-ef",
      },
    ],
    examples: [["docklens top local web"], ['docklens top local web --ps-args "-o pid,comm"']],
    call: (core, [cluster, name], options: CommandOptions & { psArgs: string }, o) =>
      core.listProcesses({ cluster: cluster!, name: name! }, { ...o, psArgs: options.psArgs }),
    view: (render) => render.processesTable,
  }),
  defineCommand({
    name: ["attach"],
    description: "print a running container's live output until Ctrl-C (read-only)",
    args: [CLUSTER_ARG, CONTAINER_ARG],
    examples: [["docklens attach local web"], ["docklens attach local web --json | jq -r .text"]],
    call: (core, [cluster, name], _, o) =>
      core.attachContainer({ cluster: cluster!, name: name! }, o),
    view: (render) => render.outputLine,
  }),
];
