// What a CLI command is, as data: an operation entry (lists.ts, across.ts, details.ts) declares
// the command that mirrors its route, and cli/main.ts turns each into a commander command.
import type { Command } from "commander";
import type { ErrorBody } from "../core/errors.ts";
import type { CoreOptions } from "../core/engine/fleet.ts";
import type { InputDecl } from "./input.ts";

/** Options every command takes (docs/http-interface.md, "The CLI and the interface"). */
export interface CommandOptions {
  config?: string;
  /** Where what docklens remembers between runs is kept (`--data-dir`). */
  dataDir?: string;
  json?: boolean;
  /** Seconds between redraws (`--watch`), `true` for the default. */
  watch?: number | true;
}

/** An argument: `<cluster>` (required), `[cluster]` (optional) or `[cluster...]`, and its help. */
export type ArgSpec = readonly [name: string, description: string];

/** One option of a command, as commander takes it. */
export interface OptionSpec {
  /** `-n, --tail <lines>`. */
  flags: string;
  description: string;
  default?: string;
  /**
   * Checks and converts the value; repeatable options collect theirs in `previous`. What it
   * throws is a usage error of the option (main.ts tells commander so).
   */
  parse?(this: void, value: string, previous: unknown): unknown;
  /**
   * The field of the operation's input (input.ts) the option's value fills: it is decoded by
   * the field's rules, and an error about the field names this flag.
   */
  field?: string;
}

// The functions of an entry are declared as methods: their parameters are then compared both
// ways, so that an entry of its own option and result types is an AnyCommandSpec as it is, with
// no cast (a function type's parameters would be compared one way only).

/** An error a result carries, which fails the command (exit 1). */
export interface Failure extends ErrorBody {
  /**
   * The result holds nothing but failures (no cluster answered): a table prints nothing, only
   * the lines on stderr; `--json` still prints the route's body.
   */
  nothingAnswered?: boolean;
  /** The error says it all (every cluster refused the user's input alike): no line per cluster. */
  alone?: boolean;
}

/** What a command may add to printing its result. */
export interface RunHooks<R> {
  /** An error the result carries (an engine that failed inside a body it still printed). */
  failure?(
    this: void,
    result: R,
    coreOptions: CoreOptions,
  ): Promise<Failure | undefined> | Failure | undefined;
  /** Lines for stderr after a table (clusters that could not be asked); not with `--json`. */
  warnings?(this: void, result: R): string[];
  /**
   * The exit code of a result that is an answer, and not a success: `docklens alerts` exits 1
   * when a rule fires, for cron and CI jobs, after printing it.
   */
  exitCode?(this: void, result: R): number;
  /**
   * Whether an item of a stream says how the command fares rather than what it shows (an
   * engine's `disconnected`): printed on stderr, as warnings are; not with `--json`.
   */
  aside?(this: void, item: R): boolean;
}

/**
 * A command: its words, help, arguments and options, then either the core call it makes (the
 * CLI's table of views, cli/views.ts, prints its result) or (serve, token hash) an action of its own.
 */
export interface CommandSpec<
  O extends CommandOptions,
  R,
  A extends unknown[],
  I = Readonly<Record<string, unknown>>,
> {
  /** Words from the top: `["detail", "container"]`. */
  name: string[];
  description: string;
  /** `["<cluster>", "cluster name or id"]`, in order. */
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  /** Without `--config` and `--json` (serve has its own). */
  bare?: boolean;
  /**
   * The last argument (variadic) takes options it does not know too, as docker top's
   * `[ps OPTIONS]` (`top web -o pid,comm`).
   */
  rest?: boolean;
  /** Lines of the help's "Examples:": the command, then what it does. */
  examples: Array<[command: string, what?: string]>;
  /** The operation's input: the options that name a field of it are decoded into it (`call`'s `input`). */
  input?: InputDecl;
  /** A usage error found in the arguments alone (exit 2), before anything loads. */
  check?(this: void, args: A, options: O): string | undefined;
  /**
   * The core call; a stream of results is printed item by item. It loads the core when it runs:
   * `--help` loads the entries, and nothing of the core.
   */
  call?(
    this: void,
    args: A,
    options: O,
    coreOptions: CoreOptions,
    input: I,
  ): Promise<R | AsyncGenerator<R>> | R;
  hooks?(this: void, args: A, options: O): RunHooks<R>;
  /** A command that is not a core call and a view. */
  action?(this: void, args: A, options: O, command: Command): Promise<void>;
}

/** A table entry, its own types forgotten: main.ts wires every entry the same way. */
export type AnyCommandSpec = CommandSpec<CommandOptions, unknown, unknown[]>;
