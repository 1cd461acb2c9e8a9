// A container's output and processes: its live output (attach), its processes (top) and its logs
// (its stats: container-stats.ts), each entry its route and the command that mirrors it.
import type { OutputLine } from "../core/containers/container-output.ts";
import type { LogStatusLine } from "../core/containers/follow-merged-logs.ts";
import type { ReadLogsResult } from "../core/containers/logs.ts";
import type { MergedLogLine, ReadMergedLogsResult } from "../core/containers/merged-logs.ts";
import type { LogsReachResult, ReachNote } from "../core/history/history-reach.ts";
import { asksHistory, noted } from "./history.ts";
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
import { MERGED_LOGS_INPUT, mergedLogsQuery } from "./selection.ts";
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

const logs = () => import("../core/containers/logs.ts");
const reach = () => import("../core/history/history-reach.ts");

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
      const note = noted<LogsResult>();
      return {
        ...across,
        warnings: (result) => [...across.warnings!(result), ...note.warnings(result)],
        aside: note.aside,
      };
    },
  }),
};
