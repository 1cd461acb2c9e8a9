// The routes over many containers at once (docs/http-interface.md, "Selections"): merged logs,
// stats of every container, and disk usage.
import {
  parseDiskUsageTypes,
  readAllDiskUsage,
  readDiskUsage,
  DISK_USAGE_TYPES,
} from "../core/clusters/disk-usage.ts";
import { readAllStats, streamAllStats } from "../core/containers/all-stats.ts";
import { followMergedLogs } from "../core/containers/follow-merged-logs.ts";
import { MAX_GREP_LENGTH } from "../core/containers/grep.ts";
import { TAIL } from "../core/containers/logs.ts";
import { parseMergedLogsQuery, readMergedLogs } from "../core/containers/merged-logs.ts";
import { NAME_PATTERN } from "../core/names.ts";
import { parseBoolean } from "../core/query.ts";
import { Streamed, type ApiRoute, type QueryParam, type RouteContext } from "./api-route.ts";
import { ACROSS, boolean, CLUSTER, clusters, filter, listOptions, time } from "./route-params.ts";

/** `type`, repeatable: the kinds of disk usage asked for. */
const types: QueryParam = {
  description: `Only these kinds, repeatable (${DISK_USAGE_TYPES.join(", ")}); every kind when absent`,
  schema: { type: "array", items: { type: "string", enum: [...DISK_USAGE_TYPES] } },
  repeatable: true,
};

/** `cluster`, `filter` and `project`: what chooses a selection's containers. */
const SELECTION: Record<string, QueryParam> = {
  cluster: clusters,
  filter: filter("containers"),
  project: {
    description: "A compose project or swarm stack: its containers only",
    schema: { type: "string", pattern: NAME_PATTERN.source, maxLength: 255 },
  },
};

/** The selection a route's query makes; the route's other parameters are read beside it. */
function selectionOf(context: RouteContext) {
  const { project, cluster: _, filter: __, ...rest } = context.query;
  return {
    options: {
      ...listOptions("containers", context),
      ...(project !== undefined ? { project } : {}),
    },
    rest,
  };
}

/** `GET /list/:cluster/df`, among the lists of one cluster. */
export const DISK_USAGE_ROUTE: ApiRoute = {
  path: "/list/:cluster/df",
  summary: "A cluster's disk usage as docker system df shows it, and the engine's /system/df body",
  schema: "DiskUsage",
  errors: [...CLUSTER, "INVALID_QUERY"],
  query: { type: types },
  run: (params, context) =>
    readDiskUsage(params.cluster!, {
      ...context,
      types: parseDiskUsageTypes(context.lists.type ?? []),
    }),
};

/** The across-cluster routes of many containers at once, and the disk usage of every cluster. */
export const SELECTION_ROUTES: ApiRoute[] = [
  {
    path: "/list/df",
    summary: "The disk usage of every cluster (or of those named); clusters that failed in errors",
    schema: "AllDiskUsage",
    errors: ACROSS,
    query: { cluster: clusters, type: types },
    run: (_, context) =>
      readAllDiskUsage({
        ...context,
        clusters: context.lists.cluster ?? [],
        types: parseDiskUsageTypes(context.lists.type ?? []),
      }),
  },
  {
    path: "/logs",
    summary:
      "The logs of a selection of containers merged in time order, each line tagged; " +
      "NDJSON with follow=true, with status lines",
    schema: "MergedLogLines",
    errors: ACROSS,
    query: {
      ...SELECTION,
      tail: {
        description: "Last lines of each container, or all (default 100)",
        schema: { type: "string", pattern: TAIL.source },
      },
      since: time("From this time"),
      until: time("Up to this time"),
      stream: {
        description: "stdout, stderr or both (default both)",
        schema: { type: "string", enum: ["stdout", "stderr", "both"] },
      },
      follow: boolean("Stream the lines as NDJSON, merged through a 200 ms reorder window"),
      grep: {
        description: `A regular expression (RE2 syntax) a line must match, at most ${MAX_GREP_LENGTH} characters`,
        schema: { type: "string", maxLength: MAX_GREP_LENGTH },
      },
    },
    ndjson: { when: "follow", schema: "MergedLogItem" },
    run: async (_, context) => {
      const { options, rest } = selectionOf(context);
      const query = parseMergedLogsQuery(rest);
      return query.follow
        ? new Streamed(await followMergedLogs({ ...options, query }))
        : readMergedLogs({ ...options, query });
    },
  },
  {
    path: "/stats",
    summary:
      "One stats sample of every running container of a selection; NDJSON rounds with stream=true",
    schema: "AllStats",
    errors: ACROSS,
    query: { ...SELECTION, stream: boolean("A round about every second, as NDJSON") },
    ndjson: { when: "stream", schema: "AllStats" },
    run: async (_, context) => {
      const { options } = selectionOf(context);
      return parseBoolean("stream", context.query.stream, false)
        ? new Streamed(await streamAllStats(options))
        : readAllStats(options);
    },
  },
];
