// History (D26): what serve recorded of containers, removed ones too. `GET /history/containers`,
// `/history/events`, `/history/logs`, `/history/stats` and their commands: `docklens history`
// (the removed containers, as `ps -a` lists live ones) and `docklens history logs|events|stats`.
// Where nothing records (a CLI one-off and no serve's file), the body says so in its `note`.
import { HISTORY_SCHEMAS } from "./bodies/history.ts";
import type { RunHooks } from "./command.ts";
import type { InputDecl } from "./input.ts";
import type { Operation } from "./operation.ts";
import { collect, CLUSTERS_ARG, CLUSTERS_QUERY, defineCommand } from "./parts.ts";
import { defineRoute } from "./route.ts";

const reads = () => import("../core/history/history-reads.ts");

const CONTAINER_FIELD = {
  kind: "name",
  description: "A container's name (every container that had it) or id prefix",
  maxLength: 255,
} as const;
const WINDOW = {
  cluster: CLUSTERS_QUERY,
  since: { kind: "time", description: "From this time" },
  until: { kind: "time", description: "Up to this time" },
} as const satisfies InputDecl;
const TAIL = {
  kind: "tail",
  description: "The last so many, or all (default all, up to a bound)",
} as const;

const HISTORY_CONTAINERS_INPUT = {
  cluster: CLUSTERS_QUERY,
  name: { ...CONTAINER_FIELD, description: "Only the containers of this name" },
  removed: { kind: "boolean", description: "Only the containers the engine removed" },
} as const satisfies InputDecl;
const HISTORY_EVENTS_INPUT = { ...WINDOW, container: CONTAINER_FIELD, tail: TAIL } as const;
const HISTORY_LOGS_INPUT = {
  ...WINDOW,
  container: CONTAINER_FIELD,
  grep: {
    kind: "pattern",
    description: "Only lines this regular expression (RE2 syntax) matches",
    maxLength: 256,
  },
  tail: TAIL,
} as const satisfies InputDecl;
const HISTORY_STATS_INPUT = {
  ...WINDOW,
  container: CONTAINER_FIELD,
  step: {
    kind: "pattern",
    description: "Average over steps of this duration (default 1m)",
    maxLength: 16,
  },
} as const satisfies InputDecl;

const ERRORS = ["INVALID_NAME", "CLUSTER_NOT_FOUND", "INVALID_QUERY"] as const;

/** `--cluster`, `--since`, `--until` of the history commands. */
const WINDOW_OPTIONS = [
  {
    flags: "--cluster <cluster>",
    description: "a cluster to read, repeatable; every cluster when none",
    parse: collect,
    field: "cluster",
  },
  {
    flags: "--since <time>",
    description: "from this time: Unix seconds, RFC 3339, or a duration like 2d",
    field: "since",
  },
  { flags: "--until <time>", description: "up to this time, same forms", field: "until" },
] as const;

/** `--container` of `history events` and `history stats`. */
const CONTAINER_OPTION = {
  flags: "--container <name>",
  description: "one container's, by name or id",
  field: "container",
} as const;

/** What a read gets: the face's options, its input, and the clusters asked (none: every one). */
const asked = <O, I extends { cluster?: string[] }>(options: O, input: I) => ({
  ...options,
  ...input,
  clusters: input.cluster ?? [],
});

/**
 * The body's note (nothing records here), once on stderr; in a followed read (`logs -f --since`)
 * an item of its own, said aside.
 */
export const noted = <R extends object>(): Required<Pick<RunHooks<R>, "warnings" | "aside">> => ({
  warnings: (result) => ("note" in result && typeof result.note === "string" ? [result.note] : []),
  aside: (item) => "note" in item && !("lines" in item),
});

/** Whether `logs`, `events` or `stats` reach into history: a window (docs/guide/history.md). */
export const asksHistory = (input: { since?: number; until?: number }) =>
  input.since !== undefined || input.until !== undefined;

/** `GET /history/containers` and `docklens history`. */
const historyContainers: Operation = {
  route: defineRoute({
    path: "/history/containers",
    summary: "The last record of each container history holds, removed ones too",
    schema: "HistoryContainers",
    schemas: { HistoryContainers: HISTORY_SCHEMAS.HistoryContainers },
    errors: [...ERRORS],
    query: HISTORY_CONTAINERS_INPUT,
    run: async (_, context) => (await reads()).listHistoryContainers(asked(context, context.input)),
  }),
  command: defineCommand({
    name: ["history"],
    description:
      "list the containers the engines removed, from serve's history, as ps -a lists live ones",
    args: [CLUSTERS_ARG],
    options: [
      { flags: "--name <name>", description: "only the containers of this name", field: "name" },
    ],
    input: HISTORY_CONTAINERS_INPUT,
    examples: [
      ["docklens history", "what was removed, newest first"],
      ["docklens history prod --name web --json | jq '.containers[0].exitCode'"],
    ],
    call: async ([clusters], _, coreOptions, input) =>
      (await reads()).listHistoryContainers({ ...coreOptions, ...input, clusters, removed: true }),
    hooks: noted,
  }),
};

/** `GET /history/events` and `docklens history events`. */
const historyEvents: Operation = {
  route: defineRoute({
    path: "/history/events",
    summary: "Engine events history holds, oldest first",
    schema: "HistoryEvents",
    schemas: { HistoryEvents: HISTORY_SCHEMAS.HistoryEvents },
    errors: [...ERRORS],
    query: HISTORY_EVENTS_INPUT,
    run: async (_, context) => (await reads()).readHistoryEvents(asked(context, context.input)),
  }),
  command: defineCommand({
    name: ["history", "events"],
    description: "print the engine events serve recorded",
    options: [
      ...WINDOW_OPTIONS,
      CONTAINER_OPTION,
      { flags: "-n, --tail <count>", description: 'the last events, or "all"', field: "tail" },
    ],
    input: HISTORY_EVENTS_INPUT,
    examples: [["docklens history events --container web --since 1d"]],
    call: async (_, __, coreOptions, input) =>
      (await reads()).readHistoryEvents(asked(coreOptions, input)),
    hooks: noted,
  }),
};

/** `GET /history/logs` and `docklens history logs`. */
const historyLogs: Operation = {
  route: defineRoute({
    path: "/history/logs",
    summary: "The lines history holds of every container that had a name (or an id)",
    schema: "HistoryLogs",
    schemas: { HistoryLogs: HISTORY_SCHEMAS.HistoryLogs },
    errors: [...ERRORS],
    query: HISTORY_LOGS_INPUT,
    run: async (_, context) => {
      const { container, ...input } = context.input;
      const { readHistoryLogs } = await reads();
      if (container === undefined) return missingContainer();
      return readHistoryLogs({ ...asked(context, input), container });
    },
  }),
  command: defineCommand({
    name: ["history", "logs"],
    description:
      "print the lines serve recorded of a container, removed ones included, each with its id",
    args: [["<container>", "container name (every container that had it) or id prefix"]],
    options: [
      ...WINDOW_OPTIONS,
      {
        flags: "--grep <pattern>",
        description: "only lines this regular expression (RE2) matches",
        field: "grep",
      },
      { flags: "-n, --tail <lines>", description: 'last lines to show, or "all"', field: "tail" },
    ],
    input: HISTORY_LOGS_INPUT,
    examples: [
      ["docklens history logs web --since 2d", "every container that was web in two days"],
      ["docklens history logs web --grep 'panic|fatal' -n 50"],
    ],
    call: async ([container], _, coreOptions, input) =>
      (await reads()).readHistoryLogs({ ...asked(coreOptions, input), container }),
    hooks: noted,
  }),
};

/** `GET /history/stats` and `docklens history stats`. */
const historyStats: Operation = {
  route: defineRoute({
    path: "/history/stats",
    summary: "Stats samples history holds, a series per container, averaged over each step",
    schema: "HistoryStats",
    schemas: { HistoryStats: HISTORY_SCHEMAS.HistoryStats },
    errors: [...ERRORS],
    query: HISTORY_STATS_INPUT,
    run: async (_, context) => (await reads()).readHistoryStats(asked(context, context.input)),
  }),
  command: defineCommand({
    name: ["history", "stats"],
    description: "print the stats samples serve recorded, a row per container",
    options: [
      ...WINDOW_OPTIONS,
      CONTAINER_OPTION,
      {
        flags: "--step <duration>",
        description: "average over steps of this duration (default 1m)",
        field: "step",
      },
    ],
    input: HISTORY_STATS_INPUT,
    examples: [["docklens history stats --container web --since 1d --step 1h --json"]],
    call: async (_, __, coreOptions, input) =>
      (await reads()).readHistoryStats(asked(coreOptions, input)),
    hooks: noted,
  }),
};

/** `container` is what `/history/logs` reads: without it, `INVALID_QUERY`. */
async function missingContainer(): Promise<never> {
  const { invalidInput } = await import("../core/errors.ts");
  return invalidInput("container", "required: the container's name or id");
}

/** The history operations, in the order of the route table. */
export const HISTORY_OPERATIONS: Operation[] = [
  historyContainers,
  historyEvents,
  historyLogs,
  historyStats,
];
