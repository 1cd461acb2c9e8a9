// The parts commands are made of: shared arguments and options, help examples, and how a
// command over many clusters reports the ones that failed.
import { InvalidArgumentError } from "commander";
import type { ClusterError } from "../core/engine/across-clusters.ts";
import type { ErrorBody } from "../core/errors.ts";
import { filterKeysHelp, type FilterKind } from "../core/filter-keys.ts";
import type { Core } from "./operations.ts";
import type { AnyCommandSpec, CommandOptions, CommandSpec, OptionSpec, RunHooks } from "./spec.ts";

/** An entry of the command table, checked against its own option, result and argument types. */
export function defineCommand<O extends CommandOptions, R, A extends unknown[] = string[]>(
  spec: CommandSpec<O, R, A>,
): AnyCommandSpec {
  return spec as unknown as AnyCommandSpec;
}

/** An "Examples:" help section: each command, then what it does, in one aligned column. */
export function examples(lines: Array<[command: string, what?: string]>): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  const line = ([command, what]: (typeof lines)[number]) =>
    `  $ ${what ? `${command.padEnd(width)}   ${what}` : command}`;
  return `\nExamples:\n${lines.map(line).join("\n")}`;
}

export const CLUSTER_ARG: [string, string] = ["<cluster>", "cluster name or id"];
export const CLUSTERS_ARG: [string, string] = [
  "[cluster...]",
  "cluster names or ids; every cluster when none",
];
export const CONTAINER_ARG: [string, string] = ["<container>", "container name, id or id prefix"];

/** `--config` and `--json`, which every command takes but the `bare` ones (serve, token). */
export const COMMON_OPTIONS: OptionSpec[] = [
  {
    flags: "-c, --config <path>",
    description: "config file (default: $DOCKLENS_CONFIG, else a search from here)",
  },
  { flags: "--json", description: "print the JSON body of the matching HTTP route" },
];

/** `-f, --filter key=value`, repeatable, with docker's keys for the list. */
export function filterOption(kind: FilterKind): OptionSpec {
  return {
    flags: "-f, --filter <key=value>",
    description: `docker's filters, repeatable (${filterKeysHelp(kind)})`,
    parse: (value: string, all: string[] = []) => [...all, value],
  };
}

/** Options of the list commands. */
export interface ListCommandOptions extends CommandOptions {
  filter?: string[];
}

/** `-w, --watch [seconds]`: redraw every so many seconds (2 by default) until Ctrl-C. */
export const WATCH_OPTION: OptionSpec = {
  flags: "-w, --watch [seconds]",
  description:
    "redraw every so many seconds (default 2) until Ctrl-C; NDJSON with --json " +
    "(put it last, or --watch=5)",
  parse: (value: string) => {
    const seconds = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.5 || seconds > 86_400)
      throw new InvalidArgumentError("expected seconds, from 0.5 to 86400");
    return seconds;
  },
};

/**
 * How an across-cluster command reports the clusters it could not ask (`refs`, or all of the
 * config's): one warning line each on stderr after the table, the others still shown; the
 * command fails only when every cluster asked failed. A result without `errors` (one cluster's
 * body) has none of this.
 */
export function acrossHooks<T extends object>(refs: readonly string[], core: Core): RunHooks<T> {
  const errorsOf = (result: T): readonly ClusterError[] =>
    "errors" in result ? (result.errors as ClusterError[]) : [];
  return {
    warnings: (result) =>
      errorsOf(result).map(({ cluster, error }) => `${cluster.name}: ${error.message}`),
    failure: (result, coreOptions): ErrorBody | undefined => {
      const errors = errorsOf(result);
      const asked = core.resolveClusters(refs, coreOptions).length;
      if (!errors.length || errors.length < asked) return undefined;
      return {
        code: errors[0]!.error.code,
        message: `no cluster answered (${errors.length} failed)`,
      };
    },
  };
}
