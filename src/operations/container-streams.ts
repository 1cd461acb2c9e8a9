// A container's output and processes: its live output (attach), its processes (top), its logs and
// its stats, each entry its route and the command that mirrors it.
import type { AllStatsResult } from "../core/containers/all-stats.ts";
import type { OutputLine } from "../core/containers/container-output.ts";
import type { LogStatusLine } from "../core/containers/follow-merged-logs.ts";
import type { ReadLogsResult } from "../core/containers/logs.ts";
import type { MergedLogLine, ReadMergedLogsResult } from "../core/containers/merged-logs.ts";
import type { StatsSample } from "../core/containers/stats.ts";
import type { LogsReachResult, ReachNote } from "../core/history/history-reach.ts";
import type { HistoryStatsResult } from "../core/history/history-reads.ts";
import type { Operation } from "./operation.ts";
import {
  acrossHooks,
  CLUSTER_ARG,
  CONTAINER_ARG,
  CONTAINER_ERRORS,
  filterOption,
  containerOf,
  defineCommand,
  itemArgs,
  LOG_RANGE_QUERY,
} from "./parts.ts";
import { defineRoute, Streamed } from "./route.ts";
import { ALL_STATS_INPUT, MERGED_LOGS_INPUT, mergedLogsQuery } from "./selection.ts";
import {
  clustersOf,
  OPTIONAL_CONTAINER,
  requireMatches,
  selectionCheck,
  SELECTION_OPTIONS,
  selectionOptions,
} from "./selection-flags.ts";

/**
 * What `docklens logs` prints: one container's lines, or a selection's (and its status lines);
 * with `--since`/`--until`, a name's recorded and live lines, each with its container.
 */
export type LogsResult =
  | ReadLogsResult
  | OutputLine
  | ReadMergedLogsResult
  | MergedLogLine
  | LogStatusLine
  | LogsReachResult
  | ReachNote;
/** What `docklens stats` prints: one container's sample, a round of a selection's, or history's. */
export type StatsResult = StatsSample | AllStatsResult | HistoryStatsResult;

const logs = () => import("../core/containers/logs.ts");
const stats = () => import("../core/containers/stats.ts");
const reach = () => import("../core/history/history-reach.ts");

/** `--since`/`--until` of a command that reads history with them (docs/guide/history.md). */
const asksHistory = (input: { since?: number; until?: number }) =>
  input.since !== undefined || input.until !== undefined;

/** The body's note (nothing records here), once on stderr; a followed one is an aside. */
const NOTED = {
  warnings: (result: object) => ("note" in result ? [String(result.note)] : []),
  aside: (item: object) => "note" in item && !("lines" in item) && !("series" in item),
};

/** `docklens stats --since`: history's samples, at this step. */
const STATS_INPUT = {
  ...ALL_STATS_INPUT,
  since: { kind: "time", description: "Recorded samples from this time" },
  until: { kind: "time", description: "Recorded samples up to this time" },
  step: {
    kind: "pattern",
    description: "Average recorded samples over steps of this duration (default 1m)",
    maxLength: 16,
  },
} as const;

/** `/detail/:cluster/container/:containerName/attach` and `docklens attach`. */
export const attach: Operation = {
  route: {
    path: "/detail/:cluster/container/:containerName/attach",
    summary: "Live output of a running container as NDJSON, read-only",
    schema: "AttachLine",
    errors: [...CONTAINER_ERRORS, "CONTAINER_NOT_RUNNING"],
    query: {},
    ndjson: { when: "always", schema: "AttachLine" },
    run: async (params, context) =>
      new Streamed(
        await (
          await import("../core/containers/attach.ts")
        ).attachContainer(containerOf(params), context),
      ),
  },
  command: defineCommand({
    name: ["attach"],
    description: "print a running container's live output until Ctrl-C (read-only)",
    args: [CLUSTER_ARG, CONTAINER_ARG],
    examples: [["docklens attach local web"], ["docklens attach local web --json | jq -r .text"]],
    call: async (args, _, coreOptions) =>
      (await import("../core/containers/attach.ts")).attachContainer(itemArgs(args), coreOptions),
  }),
};

const PROCESSES_INPUT = {
  ps_args: { kind: "psArgs", description: "Arguments of ps (default -ef)" },
} as const;

const CONTAINER_LOGS_INPUT = {
  tail: {
    kind: "tail",
    description:
      "Last lines, or all (default 100); an unfollowed read over 16 MiB (of output or of JSON) is INVALID_QUERY",
  },
  ...LOG_RANGE_QUERY,
  timestamps: { kind: "boolean", description: "Each line's time from the engine" },
  follow: {
    kind: "boolean",
    description:
      "Stream new lines as NDJSON until the client leaves, the container stops or the server shuts down",
  },
} as const;

const CONTAINER_STATS_INPUT = {
  stream: { kind: "boolean", description: "One object per engine sample, as NDJSON" },
} as const;

/** `/detail/:cluster/container/:containerName/process` and `docklens top`. */
export const processes: Operation = {
  route: defineRoute({
    path: "/detail/:cluster/container/:containerName/process",
    summary: "The processes of a running container, from the engine's top",
    schema: "Processes",
    errors: [...CONTAINER_ERRORS, "CONTAINER_NOT_RUNNING", "INVALID_QUERY"],
    query: PROCESSES_INPUT,
    run: async (params, context) =>
      (await import("../core/containers/processes.ts")).listProcesses(containerOf(params), {
        ...context,
        psArgs: context.input.ps_args,
      }),
  }),
  command: defineCommand({
    name: ["top"],
    description: "list the processes of a running container, like docker top",
    args: [
      CLUSTER_ARG,
      CONTAINER_ARG,
      ["[ps-options...]", "options of ps, as docker top takes them (aux, -o pid,comm)"],
    ],
    rest: true,
    options: [
      {
        flags: "--ps-args <args>",
        description: "arguments of ps on the engine's host",
        default: "-ef",
        field: "ps_args",
      },
      {
        flags: "--show-secrets",
        description: "allow ps's e and show NAME=value words that look like secrets",
      },
    ],
    examples: [
      ["docklens top local web"],
      ["docklens top local web -o pid,comm", "ps's options after the container, as docker top"],
      ["docklens top web aux", "the config's only cluster"],
      ['docklens top local web --ps-args "-o pid,comm"'],
    ],
    input: PROCESSES_INPUT,
    check: ([, , psOptions], options) =>
      psOptions?.length && options.psArgs !== "-ef"
        ? "give ps's options after the container or as --ps-args, not both"
        : undefined,
    call: async ([cluster, container, psOptions], options, coreOptions, input) =>
      (await import("../core/containers/processes.ts")).listProcesses(
        itemArgs([cluster, container]),
        {
          ...coreOptions,
          // docker top CONTAINER [ps OPTIONS]: the words after the container, as ps gets them.
          psArgs: psOptions?.length ? psOptions.join(" ") : input.ps_args,
          ...(options.showSecrets ? { showSecrets: true } : {}),
        },
      ),
  }),
};

/** `/detail/:cluster/container/:containerName/logs` and `docklens logs`. */
export const containerLogs: Operation = {
  route: defineRoute({
    path: "/detail/:cluster/container/:containerName/logs",
    summary: "Log lines of a container; NDJSON with follow=true",
    schema: "LogLines",
    errors: [...CONTAINER_ERRORS, "INVALID_QUERY"],
    query: CONTAINER_LOGS_INPUT,
    ndjson: { when: "follow", schema: "LogLine" },
    run: async (params, context) => {
      const { followContainerLogs, readContainerLogs } = await logs();
      const query = context.input;
      return query.follow
        ? new Streamed(await followContainerLogs(containerOf(params), { ...context, query }))
        : readContainerLogs(containerOf(params), { ...context, query });
    },
  }),
  command: defineCommand({
    name: ["logs"],
    description:
      "print the logs of a container, like docker logs; without one, the merged logs of a " +
      "selection, like docker compose logs",
    args: OPTIONAL_CONTAINER,
    options: [
      {
        flags: "-n, --tail <lines>",
        description: 'last lines to show, or "all"',
        default: "100",
        field: "tail",
      },
      {
        flags: "--since <time>",
        description:
          "from this time: Unix seconds, RFC 3339, or a duration like 10m; with a container, " +
          "what serve recorded of every container of that name too, each line with its id",
        field: "since",
      },
      {
        flags: "--until <time>",
        description: "up to this time, same forms (history too, as --since)",
        field: "until",
      },
      {
        flags: "--stream <stream>",
        description: "stdout, stderr or both",
        default: "both",
        field: "stream",
      },
      { flags: "-t, --timestamps", description: "show each line's time", field: "timestamps" },
      {
        flags: "-f, --follow",
        description: "keep printing new lines until Ctrl-C or the container stops",
        field: "follow",
      },
      ...SELECTION_OPTIONS,
      { ...filterOption("containers"), flags: "--filter <key=value>" },
      {
        flags: "--grep <pattern>",
        description: "only lines this regular expression (RE2) matches",
        field: "grep",
      },
    ],
    examples: [
      ["docklens logs local web -n 20"],
      ["docklens logs local web --since 2026-11-22T10:00 --until 10m"],
      ["docklens logs prod web --since 2d", "every container that was web: recorded, then live"],
      ["docklens logs local web -f --stream stderr"],
      ["docklens logs --project shop -f", "a compose project's logs, merged across clusters"],
      ["docklens logs --filter name=web --grep 'error|timeout' -n 50"],
    ],
    check: ([, name], options) => selectionCheck(name, options),
    // One container's logs, or a selection's: the flags are the input of either route.
    input: { ...MERGED_LOGS_INPUT, ...CONTAINER_LOGS_INPUT },
    call: async (
      [cluster, name],
      options,
      coreOptions,
      input,
    ): Promise<LogsResult | AsyncGenerator<LogsResult>> => {
      if (name === undefined) {
        const { readMergedLogs } = await import("../core/containers/merged-logs.ts");
        const selection = selectionOptions(cluster, input, coreOptions);
        const { timestamps: _, ...query } = mergedLogsQuery(input);
        await requireMatches(selection, options);
        if (!query.follow) return readMergedLogs({ ...selection, query });
        const { followMergedLogs } = await import("../core/containers/follow-merged-logs.ts");
        return followMergedLogs({ ...selection, query });
      }
      const { grep: _, ...query } = mergedLogsQuery(input);
      const ref = { cluster: cluster!, name };
      // A window reaches into history: every container that had the name, then the live one.
      if (asksHistory(query)) {
        const { followLogsReach, readLogsReach } = await reach();
        return query.follow
          ? followLogsReach(ref, { ...coreOptions, query })
          : readLogsReach(ref, { ...coreOptions, query });
      }
      const { followContainerLogs, readContainerLogs } = await logs();
      return query.follow
        ? followContainerLogs(ref, { ...coreOptions, query })
        : readContainerLogs(ref, { ...coreOptions, query });
    },
    hooks: ([cluster], options) => {
      const across = acrossHooks<LogsResult>(clustersOf(cluster, options));
      return {
        ...across,
        warnings: (result) => [...across.warnings!(result), ...NOTED.warnings(result)],
        aside: NOTED.aside,
      };
    },
  }),
};

/** `/detail/:cluster/container/:containerName/stats` and `docklens stats`. */
export const containerStats: Operation = {
  route: defineRoute({
    path: "/detail/:cluster/container/:containerName/stats",
    summary: "One stats sample with a docker stats summary; NDJSON with stream=true",
    schema: "StatsSample",
    errors: [...CONTAINER_ERRORS, "INVALID_QUERY"],
    query: CONTAINER_STATS_INPUT,
    ndjson: { when: "stream", schema: "StatsSample" },
    run: async (params, context) => {
      const { readContainerStats, streamContainerStats } = await stats();
      return context.input.stream
        ? new Streamed(await streamContainerStats(containerOf(params), context))
        : readContainerStats(containerOf(params), context);
    },
  }),
  command: defineCommand({
    name: ["stats"],
    description:
      "show a container's resource use, like docker stats; without one, every running " +
      "container's of a selection, redrawn until Ctrl-C",
    args: OPTIONAL_CONTAINER,
    options: [
      {
        flags: "--stream",
        description:
          "refresh with every engine sample until Ctrl-C (without a container, the default)",
        field: "stream",
      },
      {
        flags: "--no-stream",
        description: "one round of every container, as docker stats --no-stream",
        field: "stream",
      },
      ...SELECTION_OPTIONS,
      filterOption("containers"),
      {
        flags: "--since <time>",
        description:
          "the samples serve recorded from this time, a row each: Unix seconds, RFC 3339, or a duration like 2h",
        field: "since",
      },
      { flags: "--until <time>", description: "recorded samples up to this time", field: "until" },
      {
        flags: "--step <duration>",
        description: "with --since or --until, average over steps of this duration (default 1m)",
        field: "step",
      },
    ],
    examples: [
      ["docklens stats local web"],
      ["docklens stats local web --json | jq .summary.memoryPercent"],
      ["docklens stats", "every running container of every cluster, until Ctrl-C"],
      ["docklens stats prod --no-stream --project shop"],
      ["docklens stats prod web --since 6h --step 15m", "what serve recorded, a row per step"],
    ],
    check: ([, name], options) =>
      selectionCheck(name, options) ??
      ((options.since !== undefined || options.until !== undefined) &&
      (options.project || options.filter || options.stream !== undefined)
        ? "--since and --until read recorded samples by cluster and container: " +
          "--project, --filter and --stream are for live ones"
        : undefined),
    input: STATS_INPUT,
    call: async (
      [cluster, name],
      options,
      coreOptions,
      input,
    ): Promise<StatsResult | AsyncGenerator<StatsResult>> => {
      if (asksHistory(input)) {
        const { readHistoryStats } = await import("../core/history/history-reads.ts");
        const { since, until, step } = input;
        return readHistoryStats({
          ...coreOptions,
          clusters: clustersOf(cluster, input),
          ...(name === undefined ? {} : { container: name }),
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
          ...(step === undefined ? {} : { step }),
        });
      }
      if (name === undefined) {
        const { readAllStats, streamAllStats } = await import("../core/containers/all-stats.ts");
        const selection = selectionOptions(cluster, input, coreOptions);
        await requireMatches(selection, options, true);
        return input.stream === false ? readAllStats(selection) : streamAllStats(selection);
      }
      const { readContainerStats, streamContainerStats } = await stats();
      const ref = { cluster: cluster!, name };
      return input.stream
        ? streamContainerStats(ref, coreOptions)
        : readContainerStats(ref, coreOptions);
    },
    hooks: ([cluster], options) => {
      const across = acrossHooks<StatsResult>(clustersOf(cluster, options));
      return {
        ...across,
        warnings: (result) => [...across.warnings!(result), ...NOTED.warnings(result)],
      };
    },
  }),
};
