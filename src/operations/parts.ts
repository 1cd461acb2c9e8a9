// The parts operation entries are made of: shared arguments, options, query parameters and error
// lists, the list options of a route, and how a command over many clusters reports the ones that
// failed. Nothing here loads the core: the entries are read by `docklens --help`.
import type { ClusterError } from "../core/engine/across-clusters.ts";
import type { EngineFilters, ListOptions } from "../core/engine/filters.ts";
import type { CoreOptions, ItemRef } from "../core/engine/fleet.ts";
import type { ErrorCode } from "../core/errors.ts";
import { filterKeysHelp, type FilterKind } from "../core/filter-keys.ts";
import type {
  AnyCommandSpec,
  ArgSpec,
  CommandSpec,
  Failure,
  OptionSpec,
  RunHooks,
} from "./command.ts";
import type { ArgsOf, OptionsOf } from "./flags.ts";
import type { FieldDecl, InputDecl, InputOf } from "./input.ts";
import type { RouteContext } from "./route.ts";

/**
 * A command, its option and argument types read off the options and arguments it declares
 * (flags.ts), its result type off its core call; the view and hooks are checked against them.
 */
export function defineCommand<
  R,
  const Args extends readonly ArgSpec[] = [],
  const Options extends readonly OptionSpec[] = [],
  const Q extends InputDecl = Record<never, never>,
>(
  spec: Omit<
    CommandSpec<OptionsOf<Options>, R, ArgsOf<Args>, InputOf<Q>>,
    "args" | "options" | "input"
  > & {
    args?: Args;
    options?: Options;
    input?: Q;
  },
): AnyCommandSpec {
  return spec;
}

/**
 * A command's first argument, the cluster: it may be left out when the config has only one, as
 * docker's commands name no engine (the CLI fills it in: cli/left-out-cluster.ts).
 */
export const CLUSTER_ARG = [
  "<cluster>",
  "cluster name or id; may be left out when there is only one",
] as const;
export const CLUSTERS_ARG = [
  "[cluster...]",
  "cluster names or ids; every cluster when none",
] as const;
export const CONTAINER_ARG = ["<container>", "container name, id or id prefix"] as const;

/** `--data-dir`: where the ids of node clusters are remembered and history is kept. */
export const DATA_DIR_OPTION: OptionSpec = {
  flags: "--data-dir <dir>",
  description:
    "where docklens remembers node cluster ids and keeps history " +
    "(default: $DOCKLENS_DATA_DIR, else ~/.local/share/docklens)",
};

/**
 * `--config`, `--json` and `--data-dir`, which every command takes but the `bare` ones (serve,
 * token).
 */
export const COMMON_OPTIONS: OptionSpec[] = [
  {
    flags: "-c, --config <path>",
    description: "config file (default: $DOCKLENS_CONFIG, else a search from here)",
  },
  { flags: "--json", description: "print the JSON body of the matching HTTP route" },
  DATA_DIR_OPTION,
];

/** Repeatable: every value given, in order. */
export const collect = (value: string, all: string[] = []) => [...all, value];

/** `-f, --filter key=value`, repeatable, with docker's keys for the list: the input's `filter`. */
export function filterOption(kind: FilterKind) {
  return {
    flags: "-f, --filter <key=value>" as const,
    description: `docker's filters, repeatable (${filterKeysHelp(kind)})`,
    parse: collect,
    field: "filter",
  };
}

/** A number of seconds as `--watch` takes it; a word after `-w` that is none is the next argument. */
export const SECONDS = /^\d+(\.\d+)?$/;

/** `-w, --watch [seconds]`: redraw every so many seconds (2 by default) until Ctrl-C. */
export const WATCH_OPTION = {
  flags: "-w, --watch [seconds]" as const,
  description: "redraw every so many seconds (default 2) until Ctrl-C; NDJSON with --json",
  parse: (value: string) => {
    const seconds = Number(value);
    if (!SECONDS.test(value) || seconds < 0.5 || seconds > 86_400)
      throw new Error("expected seconds, from 0.5 to 86400");
    return seconds;
  },
} satisfies OptionSpec;

/** The clusters a body of many says failed: its `errors`; none in one cluster's body. */
const errorsIn = (result: object): readonly ClusterError[] =>
  "errors" in result ? (result.errors as ClusterError[]) : [];

/**
 * How a command across clusters reports the clusters it could not ask (`refs`, or all of the
 * config's), one rule for all (docs/guide/cli.md): when some failed, the table of the others
 * and one warning line each on stderr, exit 0; when every cluster asked failed, no table, the
 * warnings and `no cluster answered` on stderr, exit 1 (`--json` prints the body, exit 1); when
 * every one refused the user's input (`INVALID_QUERY`: a filter value), that error alone, as a
 * usage error. The failures are the body's `errors` unless `errorsOf` reads them elsewhere.
 */
export function acrossHooks<T extends object>(
  refs: readonly string[],
  errorsOf: (result: T) => readonly ClusterError[] = errorsIn,
): RunHooks<T> {
  return {
    warnings: (result) =>
      errorsOf(result).map(({ cluster, error }) => `${cluster.name}: ${error.message}`),
    failure: async (result, coreOptions): Promise<Failure | undefined> => {
      const errors = errorsOf(result);
      if (!errors.length) return undefined;
      const { resolveClusters } = await import("../core/engine/fleet.ts");
      if (errors.length < resolveClusters(refs, coreOptions).length) return undefined;
      // Every engine refused the user's input (a filter value): the user's error, said once.
      const [first] = errors;
      if (errors.every(({ error }) => error.code === "INVALID_QUERY"))
        return { ...first!.error, nothingAnswered: true, alone: true };
      return {
        code: errors[0]!.error.code,
        message: `no cluster answered (${errors.length} failed)`,
        nothingAnswered: true,
      };
    },
  };
}

/** `filter`, repeatable, with docker's keys for `kind`. */
export const filterQuery = (kind: FilterKind) => ({ kind: "filter", of: kind }) as const;
/** `since`, `until` and `stream`: which of a container's lines logs read, of one or of many. */
export const LOG_RANGE_QUERY = {
  since: { kind: "time", description: "From this time" },
  until: { kind: "time", description: "Up to this time" },
  stream: {
    kind: "choice",
    description: "stdout, stderr or both (default both)",
    values: ["stdout", "stderr", "both"],
  },
} as const satisfies InputDecl;
/** `cluster`, repeatable: the clusters an across-cluster route asks (all when absent). */
export const CLUSTERS_QUERY = { kind: "clusters" } as const satisfies FieldDecl;

/** A list's input (`filter`, `cluster`) as the core's list options. */
export function listOptions<C extends CoreOptions>(
  context: C & { input: { filter?: EngineFilters; cluster?: string[] } },
) {
  return { ...context, filters: context.input.filter, clusters: context.input.cluster ?? [] };
}

/** `all` of the image lists: intermediate images too, as `docker images -a` lists them. */
export const ALL_IMAGES_QUERY = {
  kind: "boolean",
  description: "Intermediate images too, as docker images -a lists them",
} as const satisfies FieldDecl;

/** `size`: the container lists with each container's sizes, as `docker ps --size` asks. */
export const SIZE_QUERY = {
  kind: "boolean",
  description:
    "Each container's SizeRw and SizeRootFs, as docker ps --size asks " +
    "(the engine walks every container's layers: slow on big engines)",
} as const satisfies FieldDecl;

/** `-s, --size` of `ps` and `containers`: docker ps's SIZE column. */
export const SIZE_OPTION = {
  flags: "-s, --size",
  description: "a SIZE column, as docker ps -s (slow on big engines)",
} as const;

/** The input of a container list: `filter`, `size`, and, across clusters, `cluster`. */
export const CONTAINER_LIST_INPUT = { filter: filterQuery("containers"), size: SIZE_QUERY };

/** A container list's input as the core's options: filters, clusters, and `size`. */
export function containerListOptions<C extends CoreOptions>(
  context: C & { input: InputOf<typeof CONTAINER_LIST_INPUT> & { cluster?: string[] } },
) {
  return { ...listOptions(context), size: context.input.size ?? false };
}

/**
 * Whether a container list command asks for sizes: `--size`, or, as docker ps decides it
 * (cli/command/container/list.go), a `--format` whose template uses `.Size` (`{{json .}}` prints
 * every field; `json` does not count, as docker reads it as a template before it means
 * `{{json .}}`, so its Size is `0B`) unless `-q`.
 */
export function wantsSize(options: { size?: boolean; quiet?: boolean; format?: string }): boolean {
  if (options.size) return true;
  if (options.quiet || options.format === undefined) return false;
  return /\.Size\b|\{\{-?\s*json\s+\.\s*-?\}\}/.test(options.format);
}

const ENGINE: ErrorCode[] = ["ENGINE_UNREACHABLE", "ENGINE_ERROR", "ENGINE_TIMEOUT"];
/** The errors of a route about one cluster. */
export const CLUSTER_ERRORS: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", ...ENGINE];
/** The errors of a route about one container. */
export const CONTAINER_ERRORS: ErrorCode[] = [
  ...CLUSTER_ERRORS,
  "CONTAINER_NOT_FOUND",
  "AMBIGUOUS_NAME",
];
/** The errors of a list of one cluster. */
export const LIST_ERRORS: ErrorCode[] = [...CLUSTER_ERRORS, "INVALID_QUERY"];
/** Across clusters, engines' failures are in the body's `errors`, never the status. */
export const ACROSS_ERRORS: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", "INVALID_QUERY"];

/** The item a route's path names: its cluster and its name (`containerName`, `imageName`, ...). */
export const itemOf = (params: Record<string, string>, name: string) => ({
  cluster: params.cluster!,
  name: params[name]!,
});

/** The container a route's path names. */
export const containerOf = (params: Record<string, string>) => itemOf(params, "containerName");

/** The item a command's arguments name: `<cluster> <name>`. */
export const itemArgs = ([cluster, name]: [string, string]) => ({ cluster, name });

/** The input of one cluster's list of `kind`: `filter`. */
export const listInput = <K extends FilterKind>(kind: K) => ({ filter: filterQuery(kind) });

/**
 * The core call of one cluster's list of `kind`, as its route makes it (the cluster in the path,
 * `filter` in the query) and as the command that mirrors it does (`<cluster>`, `--filter`).
 */
export function clusterList<R>(
  kind: FilterKind,
  load: () => Promise<(cluster: string, options: ListOptions) => Promise<R>>,
) {
  const input = listInput(kind);
  type Input = InputOf<typeof input>;
  return {
    input,
    run: async (params: Record<string, string>, context: RouteContext<Input>) =>
      (await load())(params.cluster!, { ...context, filters: context.input.filter }),
    call: async ([cluster]: [string], _: unknown, coreOptions: CoreOptions, input: Input) =>
      (await load())(cluster, { ...coreOptions, filters: input.filter }),
  };
}

/** The core call of one item's detail, as its route makes it (`param` in the path) and its command. */
export function itemDetail<R>(
  param: string,
  load: () => Promise<(item: ItemRef, options: CoreOptions) => Promise<R>>,
) {
  return {
    run: async (params: Record<string, string>, context: RouteContext) =>
      (await load())(itemOf(params, param), context),
    call: async (args: [string, string], _: unknown, coreOptions: CoreOptions) =>
      (await load())(itemArgs(args), coreOptions),
  };
}
