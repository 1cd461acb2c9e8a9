// The operations over many containers at once (docs/http-interface.md, "Selections"): merged
// logs and stats of every container, whose commands are `logs` and `stats` without a container
// (container-streams.ts); and disk usage, of one cluster or of every cluster (`df`).
import type { Operation } from "./operation.ts";
import {
  ACROSS_ERRORS,
  acrossHooks,
  CLUSTERS_ARG,
  CLUSTERS_QUERY,
  collect,
  defineCommand,
  filterQuery,
  LIST_ERRORS,
  listOptions,
  LOG_RANGE_QUERY,
} from "./parts.ts";
import type { InputOf } from "./input.ts";
import { defineRoute, Streamed, type RouteContext } from "./route.ts";
import { SELECTION_SCHEMAS } from "./bodies/selection.ts";

const diskUsageCore = () => import("../core/clusters/disk-usage.ts");
/** The kinds `/system/df` reports; disk-usage.ts's DISK_USAGE_TYPES (this file loads no core). */
const DISK_USAGE_TYPES = ["image", "container", "volume", "build-cache"] as const;

const TYPES = {
  kind: "choices",
  description: `Only these kinds, repeatable (${DISK_USAGE_TYPES.join(", ")}); every kind when absent`,
  values: DISK_USAGE_TYPES,
} as const;

/** `cluster`, `filter` and `project`: what chooses a selection's containers. */
export const SELECTION_QUERY = {
  cluster: CLUSTERS_QUERY,
  filter: filterQuery("containers"),
  project: {
    kind: "name",
    description: "A compose project or swarm stack: its containers only",
    maxLength: 255,
  },
} as const;

/** The selection an input chooses, as the core's selection options. */
export function selectionOf<C extends RouteContext<InputOf<typeof SELECTION_QUERY>>>(context: C) {
  return { ...listOptions(context), project: context.input.project };
}

/** The input of `/logs`: a selection, and what to read of each container's logs. */
export const MERGED_LOGS_INPUT = {
  ...SELECTION_QUERY,
  tail: { kind: "tail", description: "Last lines of each container, or all (default 100)" },
  ...LOG_RANGE_QUERY,
  follow: {
    kind: "boolean",
    description: "Stream the lines as NDJSON, merged through a 200 ms reorder window",
  },
  grep: {
    kind: "pattern",
    description: "A regular expression (RE2 syntax) a line must match",
    maxLength: 256,
  },
} as const;

/** `/logs`'s own (the CLI's logs name a selection, never a default): cut a selection over the bound. */
const NEWEST_QUERY = {
  kind: "boolean",
  description:
    "A selection of more containers than the bound is cut to the most recently created, up to " +
    "it, instead of refused; a first line (the body's selection) says how many matched",
} as const;

/** `first`, then the items of `rest`, which starts at once: its end runs whenever this one ends. */
async function* startingWith<T, U>(first: T, rest: AsyncGenerator<U>): AsyncGenerator<T | U> {
  const pending = rest.next();
  try {
    yield first;
    for (let step = await pending; !step.done; step = await rest.next()) yield step.value;
  } finally {
    void rest.return(undefined);
  }
}

/** The input of `/stats`: a selection, and whether to stream. */
export const ALL_STATS_INPUT = {
  ...SELECTION_QUERY,
  stream: { kind: "boolean", description: "A round about every second, as NDJSON" },
} as const;

/** The fields of merged logs' input that the core's `query` takes: all but the selection's. */
export function mergedLogsQuery<I extends InputOf<typeof MERGED_LOGS_INPUT>>(input: I) {
  const { cluster: _, filter: __, project: ___, ...query } = input;
  return query;
}

const DF_INPUT = { cluster: CLUSTERS_QUERY, type: TYPES };

/** `GET /list/:cluster/df`, among one cluster's lists; `docklens df <cluster>` is `df`'s. */
export const clusterDiskUsage: Operation = {
  route: defineRoute({
    path: "/list/:cluster/df",
    summary:
      "A cluster's disk usage as docker system df shows it, and the engine's /system/df body",
    schema: "DiskUsage",
    schemas: { DiskUsage: SELECTION_SCHEMAS.DiskUsage },
    errors: LIST_ERRORS,
    query: { type: TYPES },
    run: async (params, context) =>
      (await diskUsageCore()).readDiskUsage(params.cluster!, {
        ...context,
        types: context.input.type ?? [],
      }),
  }),
};

/** The across-cluster operations of many containers at once, and every cluster's disk usage. */
export const SELECTION_OPERATIONS: Operation[] = [
  {
    route: defineRoute({
      path: "/list/df",
      summary:
        "The disk usage of every cluster (or of those named); clusters that failed in errors",
      schema: "AllDiskUsage",
      schemas: { AllDiskUsage: SELECTION_SCHEMAS.AllDiskUsage },
      errors: ACROSS_ERRORS,
      query: DF_INPUT,
      run: async (_, context) =>
        (await diskUsageCore()).readAllDiskUsage({
          ...context,
          clusters: context.input.cluster ?? [],
          types: context.input.type ?? [],
        }),
    }),
    command: defineCommand({
      name: ["df"],
      description: "show the disk usage of a cluster, or of every cluster, like docker system df",
      args: [CLUSTERS_ARG],
      options: [
        { flags: "-v, --verbose", description: "each image, container and volume too" },
        {
          flags: "--type <kind>",
          description: `only this kind, repeatable (${DISK_USAGE_TYPES.join(", ")})`,
          parse: collect,
          field: "type",
        },
      ],
      examples: [
        ["docklens df", "every cluster's, with a CLUSTER column"],
        ["docklens df prod -v"],
        ["docklens df --type volume --json | jq '.clusters[].summary'"],
      ],
      input: DF_INPUT,
      call: async ([clusters], options, coreOptions, input) => {
        const { readAllDiskUsage, readDiskUsage } = await diskUsageCore();
        const types = input.type ?? [];
        // One cluster mirrors /list/:cluster/df; none or several, /list/df.
        if (clusters.length !== 1) return readAllDiskUsage({ ...coreOptions, clusters, types });
        const body = await readDiskUsage(clusters[0]!, { ...coreOptions, types });
        if (options.json) return body;
        // The table's CLUSTER column names it, as it does with several.
        const { resolveCluster } = await import("../core/engine/fleet.ts");
        const { id, name } = resolveCluster(clusters[0]!, coreOptions);
        return { ...body, cluster: { id, name } };
      },
      hooks: ([clusters]) => acrossHooks(clusters),
    }),
  },
  {
    route: defineRoute({
      path: "/logs",
      summary:
        "The logs of a selection of containers merged in time order, each line tagged; " +
        "NDJSON with follow=true, with status lines",
      schema: "MergedLogLines",
      schemas: {
        MergedLogLines: SELECTION_SCHEMAS.MergedLogLines,
        MergedLogItem: SELECTION_SCHEMAS.MergedLogItem,
      },
      errors: ACROSS_ERRORS,
      query: { ...MERGED_LOGS_INPUT, newest: NEWEST_QUERY },
      ndjson: { when: "follow", schema: "MergedLogItem" },
      run: async (_, context) => {
        const { newest, ...input } = context.input;
        const options = { ...selectionOf(context), newest, query: mergedLogsQuery(input) };
        if (!context.input.follow)
          return (await import("../core/containers/merged-logs.ts")).readMergedLogs(options);
        const { followMergedLogs } = await import("../core/containers/follow-merged-logs.ts");
        const stream = await followMergedLogs(options);
        return new Streamed(
          newest ? startingWith({ selection: stream.selection }, stream) : stream,
        );
      },
    }),
  },
  {
    route: defineRoute({
      path: "/stats",
      summary:
        "One stats sample of every running container of a selection; NDJSON rounds with stream=true",
      schema: "AllStats",
      schemas: { AllStats: SELECTION_SCHEMAS.AllStats },
      errors: ACROSS_ERRORS,
      query: ALL_STATS_INPUT,
      ndjson: { when: "stream", schema: "AllStats" },
      run: async (_, context) => {
        const options = selectionOf(context);
        const { readAllStats, streamAllStats } = await import("../core/containers/all-stats.ts");
        return context.input.stream
          ? new Streamed(await streamAllStats(options))
          : readAllStats(options);
      },
    }),
  },
];
