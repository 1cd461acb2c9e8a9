// A command's option and argument types, read off the flags and arguments it declares, as citty
// infers them: `--ps-args <args>` with a default is `psArgs: string`, `--no-trunc` is
// `trunc: boolean`, `-f, --filter <key=value>` with a parser collecting values is
// `filter?: string[]`, `[cluster...]` is `string[]`. Commander makes the values at run time by
// the same rules; a command never writes its option types by hand.
import type { ArgSpec, CommandOptions, OptionSpec } from "./command.ts";

/** `ps-args` as `psArgs`, as commander names an option's value. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** The long flag's name: `-n, --tail <lines>` is `tail`. */
type LongName<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;

/** The key of the option's value: `--no-trunc` is `trunc`. */
type KeyOf<F extends string> =
  LongName<F> extends `no-${infer Name}` ? Camel<Name> : Camel<LongName<F>>;

/** What a flag takes: a value (`<lines>`), a value or none (`[seconds]`), or none. */
type Takes<F extends string> = F extends `${string}<${string}>`
  ? "value"
  : F extends `${string}[${string}]`
    ? "maybe"
    : "none";

/** The value commander gives: the parser's result, else the text given, or `true` alone. */
type ValueOf<O extends OptionSpec> =
  | (O extends { parse(value: string, previous: never): infer P }
      ? P
      : Takes<O["flags"]> extends "none"
        ? boolean
        : string)
  | (Takes<O["flags"]> extends "maybe" ? true : never);

/** Whether the value is always there: the option has a default, or is a `--no-` flag. */
type AlwaysSet<O extends OptionSpec> = O extends { default: string }
  ? true
  : LongName<O["flags"]> extends `no-${string}`
    ? true
    : false;

/** The options object of a command that declares the options `T`. */
export type OptionsOf<T extends readonly OptionSpec[]> = CommandOptions & {
  [O in T[number] as AlwaysSet<O> extends true ? KeyOf<O["flags"]> : never]: ValueOf<O>;
} & {
  [O in T[number] as AlwaysSet<O> extends true ? never : KeyOf<O["flags"]>]?: ValueOf<O>;
};

/** The arguments of a command that declares the arguments `T`, in order. */
export type ArgsOf<T extends readonly ArgSpec[]> = {
  -readonly [K in keyof T]: T[K][0] extends `${string}...${string}`
    ? string[]
    : T[K][0] extends `<${string}>`
      ? string
      : string | undefined;
};
