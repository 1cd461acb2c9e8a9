import { InvalidArgumentError, type Command } from "commander";
import type { ClusterError } from "../core/across-clusters.ts";
import type { ErrorBody } from "../core/errors.ts";
import type { CommandOptions, RunHooks } from "./run.ts";

/** An "Examples:" help section: each command, then what it does, in one aligned column. */
export function examples(lines: Array<[command: string, what?: string]>): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  const line = ([command, what]: (typeof lines)[number]) =>
    `  $ ${what ? `${command.padEnd(width)}   ${what}` : command}`;
  return `\nExamples:\n${lines.map(line).join("\n")}`;
}

/** Lazily loaded so that `--help` and `--version` load nothing but commander. */
export const run: typeof import("./run.ts").run = async (...args) =>
  (await import("./run.ts")).run(...args);

/** `--config` and `--json`, which every command takes (D14). */
export function common(command: Command): Command {
  return command
    .option(
      "-c, --config <path>",
      "config file (default: $DOCKLENS_CONFIG, else a search from here)",
    )
    .option("--json", "print the JSON body of the matching HTTP route");
}

/** `-f, --filter key=value`, repeatable, with docker's keys for the list. */
export function filterOption(command: Command, keys: string): Command {
  return command.option(
    "-f, --filter <key=value>",
    `docker's filters, repeatable (${keys})`,
    (value: string, all: string[] = []) => [...all, value],
  );
}

/** `-w, --watch [seconds]`: redraw every so many seconds (2 by default) until Ctrl-C. */
export function watchOption(command: Command): Command {
  return command.option(
    "-w, --watch [seconds]",
    "redraw every so many seconds (default 2) until Ctrl-C; NDJSON with --json (put it last, or --watch=5)",
    (value: string) => {
      const seconds = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.5 || seconds > 86_400)
        throw new InvalidArgumentError("expected seconds, from 0.5 to 86400");
      return seconds;
    },
  );
}

/** Options of the list commands. */
export interface ListCommandOptions extends CommandOptions {
  filter?: string[];
}

/** The filter keys of each list, for help texts. */
export const FILTER_HELP = {
  containers:
    "name, label, status, health, ancestor, network, volume, publish, expose, exited, id, ...",
  images: "reference, label, dangling, before, since, until",
  volumes: "name, label, driver, dangling",
  networks: "name, label, driver, id, scope, type, dangling",
  events: "type, event, container, image, label, network, volume, daemon, ...",
};

/**
 * How an across-cluster command reports the clusters it could not ask (`refs`, or all of the
 * config's): one warning line each on stderr after the table, the others still shown; the
 * command fails only when every cluster asked failed. A result without `errors` (one cluster's
 * body) has none of this.
 */
export function acrossHooks<T extends object>(refs: readonly string[]): RunHooks<T> {
  const errorsOf = (result: T): readonly ClusterError[] =>
    "errors" in result ? (result.errors as ClusterError[]) : [];
  return {
    warnings: (result) =>
      errorsOf(result).map(({ cluster, error }) => `${cluster.name}: ${error.message}`),
    failure: (result, { fleet }): ErrorBody | undefined => {
      const errors = errorsOf(result);
      const { clusters } = fleet.config;
      // `local` and `1` may name one cluster: count clusters, not names.
      const asked = refs.length
        ? new Set(
            refs.map(
              (ref) =>
                clusters.find((c) => (/^\d+$/.test(ref) ? c.id === Number(ref) : c.name === ref))
                  ?.id ?? ref,
            ),
          ).size
        : clusters.length;
      if (!errors.length || errors.length < asked) return undefined;
      return {
        code: errors[0]!.error.code,
        message: `no cluster answered (${errors.length} failed)`,
      };
    },
  };
}
