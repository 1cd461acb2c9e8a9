// A container's stats, live or (with `--since`/`--until`) as serve recorded them: its route and
// the command that mirrors it.
import type { AllStatsResult } from "../core/containers/all-stats.ts";
import type { StatsSample } from "../core/containers/stats.ts";
import type { HistoryStatsResult } from "../core/history/history-reads.ts";
import { asksHistory, noted } from "./history.ts";
import type { Operation } from "./operation.ts";
import {
  acrossHooks,
  containerOf,
  CONTAINER_ERRORS,
  defineCommand,
  filterOption,
} from "./parts.ts";
import { defineRoute, Streamed } from "./route.ts";
import { ALL_STATS_INPUT } from "./selection.ts";
import {
  clustersOf,
  OPTIONAL_CONTAINER,
  requireMatches,
  selectionCheck,
  SELECTION_OPTIONS,
  selectionOptions,
} from "./selection-flags.ts";

/** What `docklens stats` prints: one container's sample, a round of a selection's, or history's. */
export type StatsResult = StatsSample | AllStatsResult | HistoryStatsResult;

const stats = () => import("../core/containers/stats.ts");

const CONTAINER_STATS_INPUT = {
  stream: { kind: "boolean", description: "One object per engine sample, as NDJSON" },
} as const;

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
      const { warnings } = noted<StatsResult>();
      return {
        ...across,
        warnings: (result) => [...across.warnings!(result), ...warnings(result)],
      };
    },
  }),
};
