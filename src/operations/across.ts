// The operations over every cluster at once (or those named): each entry its route and the
// command that mirrors it.
import type { ClusterEvent } from "../core/clusters/events.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import type { ReachNote, ReachStatus } from "../core/history/history-reach.ts";
import type { Operation } from "./operation.ts";
import {
  ACROSS_ERRORS,
  ALL_IMAGES_QUERY,
  acrossHooks,
  CLUSTERS_ARG,
  CLUSTERS_QUERY,
  CONTAINER_LIST_INPUT,
  defineCommand,
  filterOption,
  filterQuery,
  containerListOptions,
  listOptions,
  SIZE_OPTION,
  WATCH_OPTION,
  wantsSize,
} from "./parts.ts";
import { defineRoute, Streamed } from "./route.ts";
import { WATCH_SCHEMAS } from "./bodies/watch.ts";
import { containerWatch, WATCH_QUERY } from "./watch.ts";

const PS_INPUT = { cluster: CLUSTERS_QUERY, ...CONTAINER_LIST_INPUT };
const IMAGES_INPUT = {
  cluster: CLUSTERS_QUERY,
  filter: filterQuery("images"),
  all: ALL_IMAGES_QUERY,
};
const EVENTS_INPUT = {
  cluster: CLUSTERS_QUERY,
  since: { kind: "time", description: "Events since this time (the engines keep a backlog)" },
  until: { kind: "time", description: "Events up to this time; the stream then ends" },
  filter: filterQuery("events"),
} as const;

const images = () => import("../core/objects/images.ts");
const events = () => import("../core/clusters/events.ts");

/** The operations across clusters, in the order of the route table. */
export const ACROSS_OPERATIONS: Operation[] = [
  {
    route: defineRoute({
      path: "/list/containers",
      summary:
        "The containers of every cluster (or of those named), each with its cluster; clusters that failed in errors",
      schema: "AllContainerList",
      schemas: WATCH_SCHEMAS,
      errors: ACROSS_ERRORS,
      query: { ...PS_INPUT, watch: WATCH_QUERY },
      ndjson: { when: "watch", schema: "ContainerWatchLine" },
      run: async (_, context) =>
        (await containerWatch(context)) ??
        (await import("../core/containers/containers.ts")).listAllContainers(
          containerListOptions(context),
        ),
    }),
    command: defineCommand({
      name: ["ps"],
      description: "list the containers of every cluster, like docker ps",
      args: [CLUSTERS_ARG],
      options: [
        filterOption("containers"),
        WATCH_OPTION,
        {
          flags: "-a, --all",
          description:
            "stopped containers too; a status filter implies it (the JSON body always holds both lists)",
        },
        {
          flags: "-q, --quiet",
          description:
            "only ids, a line each: bare for one cluster (named, or the only one), else cluster/id",
        },
        {
          flags: "-n, --last <n>",
          description: "the n last created containers (all states), newest first, as docker ps -n",
          parse: parseLast,
        },
        {
          flags: "-l, --latest",
          description: "the last created container (all states), as docker ps -l",
        },
        { flags: "--no-trunc", description: "ids and commands whole" },
        SIZE_OPTION,
        {
          flags: "--format <template>",
          description:
            "docker's --format: a Go template a row ({{.Names}}, {{json .}}), json, or table " +
            "TEMPLATE; docker's fields and {{.Cluster}} {{.Project}}",
        },
        {
          flags: "--group",
          description: "one line per compose project or stack: services, running/total, clusters",
        },
      ],
      examples: [
        ["docklens ps", "running containers of every cluster"],
        ["docklens ps -a prod staging", "all containers of two clusters"],
        ["docklens ps --filter health=unhealthy", "what is unhealthy anywhere"],
        ["docklens ps --filter name=web -q", "where web runs, as cluster/id"],
        ["docklens ps -a --group", "compose projects across clusters"],
        ["docklens ps --watch 5"],
      ],
      check: (_, options) =>
        options.group && options.json
          ? "--group is a table; with --json, group the containers with jq (examples/jq.sh)"
          : undefined,
      input: PS_INPUT,
      call: async ([clusters], options, coreOptions, { filter: filters }) => {
        const { listAllContainers, newestFirst, psDefault } =
          await import("../core/containers/containers.ts");
        const body = await listAllContainers({
          ...coreOptions,
          clusters,
          filters,
          size: wantsSize(options),
        });
        const last = options.latest && options.last === undefined ? 1 : (options.last ?? 0);
        // -n and -l: the last created of every state, as docker's; its JSON body holds them alone.
        if (last > 0) {
          const shown = newestFirst(body.containers).slice(0, last);
          const ids = new Set(shown.map((container) => container.Id));
          if (options.json)
            return {
              ...body,
              running: body.running.filter((item) => ids.has(item.Id)),
              containers: shown,
            };
          return { ...body, shown, oneCluster: asksOne(clusters, coreOptions) };
        }
        // Without -a, the table lists what docker ps does; --json prints the route's body.
        if (options.json) return body;
        return {
          ...body,
          shown: options.all ? body.containers : psDefault(body.containers, filters),
          oneCluster: asksOne(clusters, coreOptions),
        };
      },
      hooks: ([clusters]) => acrossHooks(clusters),
    }),
  },
  {
    route: defineRoute({
      path: "/list/images",
      summary:
        "The images of every cluster (or of those named), each with its cluster; clusters that failed in errors",
      schema: "AllImageList",
      errors: ACROSS_ERRORS,
      query: IMAGES_INPUT,
      run: async (_, context) =>
        (await images()).listAllImages({ ...listOptions(context), all: context.input.all }),
    }),
    command: defineCommand({
      name: ["images"],
      description: "list the images of a cluster, or of every cluster, like docker images",
      args: [CLUSTERS_ARG],
      options: [
        filterOption("images"),
        {
          flags: "-a, --all",
          description: "intermediate images too, as docker images -a",
          field: "all",
        },
        {
          flags: "-q, --quiet",
          description:
            "only image ids, a line each: bare for one cluster (named, or the only one), else cluster/id",
        },
        {
          flags: "--format <template>",
          description:
            "docker's --format: a Go template a row ({{.Repository}}, {{json .}}), json, or " +
            "table TEMPLATE; docker's fields and {{.Cluster}}",
        },
        { flags: "--digests", description: "a DIGEST column, a row per digest, as docker's" },
      ],
      examples: [
        ["docklens images local"],
        ["docklens images", "every cluster's, with a CLUSTER column"],
        ["docklens images --filter dangling=true"],
      ],
      input: IMAGES_INPUT,
      call: async ([clusters], options, coreOptions, { filter: filters, all }) => {
        const { listAllImages, listImages } = await images();
        // One cluster mirrors /list/:cluster/images; none or several, /list/images.
        if (clusters.length === 1)
          return listImages(clusters[0]!, { ...coreOptions, filters, all });
        const body = await listAllImages({ ...coreOptions, clusters, filters, all });
        return options.json ? body : { ...body, oneCluster: asksOne(clusters, coreOptions) };
      },
      hooks: ([clusters]) => acrossHooks(clusters),
    }),
  },
  {
    route: defineRoute({
      path: "/events",
      summary:
        "The engines' events merged, each with its cluster, as NDJSON (Server-Sent Events with " +
        "Accept: text/event-stream); status lines when an engine drops out and comes back",
      schema: "EventLine",
      errors: ["INVALID_NAME", "CLUSTER_NOT_FOUND", "INVALID_QUERY"],
      query: EVENTS_INPUT,
      ndjson: { when: "always", schema: "EventLine" },
      run: async (_, context) =>
        new Streamed(
          await (
            await events()
          ).streamEvents({
            ...listOptions(context),
            since: context.input.since,
            until: context.input.until,
          }),
        ),
    }),
    command: defineCommand({
      name: ["events"],
      description: "the engines' events, merged, until Ctrl-C, like docker events",
      args: [CLUSTERS_ARG],
      options: [
        filterOption("events"),
        {
          flags: "--since <time>",
          description:
            "events since this time: Unix seconds, a date and time, or a duration like 10m; " +
            "what the engine no longer keeps comes from serve's history",
          field: "since",
        },
        {
          flags: "--until <time>",
          description: "events up to this time, then stop; same forms",
          field: "until",
        },
        {
          flags: "--format <template>",
          description:
            "docker's --format: a Go template an event ({{.Type}} {{.Action}} " +
            "{{.Actor.Attributes.name}}, {{.Cluster}}), or json",
        },
      ],
      examples: [
        ["docklens events", "every engine's events, as they come"],
        ["docklens events prod --since 1h --filter type=container"],
        ["docklens events --json | jq -c 'select(.Action == \"die\")'"],
        ["docklens events --format '{{.Cluster}} {{.Action}} {{.Actor.Attributes.name}}'"],
      ],
      input: EVENTS_INPUT,
      call: async (
        [clusters],
        _,
        coreOptions,
        input,
      ): Promise<AsyncGenerator<ClusterEvent | ReachStatus | ReachNote>> => {
        const stream = await (
          await events()
        ).streamEvents({
          ...coreOptions,
          clusters,
          filters: input.filter,
          since: input.since,
          until: input.until,
          // Every engine away: exit 1 once each failed within its time limit, as ps does.
          failWhenAllDown: true,
        });
        if (input.since === undefined) return stream;
        // What an engine's backlog no longer holds comes from history (docs/guide/history.md).
        const { fillEventsGap } = await import("../core/history/history-reach.ts");
        return fillEventsGap(stream, { ...coreOptions, since: input.since, filters: input.filter });
      },
      // An engine's status line is no event: on stderr, where ps says which clusters failed.
      hooks: () => ({ aside: (item) => !("Type" in item) }),
    }),
  },
  {
    route: defineRoute({
      path: "/list/drift",
      summary:
        "Image references that mean different images on different clusters, and each engine's version",
      schema: "Drift",
      errors: ACROSS_ERRORS,
      query: { cluster: CLUSTERS_QUERY },
      run: async (_, context) =>
        (await import("../core/objects/drift.ts")).listDrift({
          ...context,
          clusters: context.input.cluster ?? [],
        }),
    }),
    command: defineCommand({
      name: ["drift"],
      description:
        "image references that mean different images on different clusters, and engine versions",
      args: [CLUSTERS_ARG],
      examples: [
        ["docklens drift"],
        [
          "docklens drift --json | jq -r '.images[] | select(.drift) | .reference'",
          "references that drifted",
        ],
      ],
      call: async ([clusters], _, coreOptions) =>
        (await import("../core/objects/drift.ts")).listDrift({ ...coreOptions, clusters }),
      hooks: ([clusters]) => acrossHooks(clusters),
    }),
  },
];

/** `-n`'s value: a whole number, as docker's flag takes it; 0 or less lists as without it. */
function parseLast(value: string): number {
  if (!/^-?\d+$/.test(value))
    throw new Error(`expected a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Whether a command asks one cluster: one named, or none named of a config that has one. */
function asksOne(clusters: readonly string[], coreOptions: CoreOptions): boolean {
  return (clusters.length || coreOptions.fleet.config.clusters.length) === 1;
}
