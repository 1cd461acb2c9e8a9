// The CLI: commander wired to the command table, and the one place that turns errors into a
// line on stderr and an exit code.
import { Command, CommanderError, InvalidArgumentError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import type { AnyCommandSpec, CommandOptions, OptionSpec } from "../operations/command.ts";
import { COMMON_OPTIONS } from "../operations/parts.ts";
import { OPERATION_COMMANDS } from "../operations/table.ts";
import { commandIndex, groupHelp, normalizeArgs } from "./argv.ts";
import { leadsWithCluster, missingArgument } from "./left-out-cluster.ts";
import { escapeControls } from "./render/escape.ts";
import { SERVE_COMMANDS } from "./serve-commands.ts";
import { TUI_COMMAND } from "../tui/command.ts";

/** The commands, in the order the help lists them. */
const COMMANDS = [...OPERATION_COMMANDS, ...SERVE_COMMANDS, TUI_COMMAND];

/** An "Examples:" help section: each command, then what it does, in one aligned column. */
function examples(lines: Array<[command: string, what?: string]>): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  const line = ([command, what]: (typeof lines)[number]) =>
    `  $ ${what ? `${command.padEnd(width)}   ${what}` : command}`;
  return `\nExamples:\n${lines.map(line).join("\n")}`;
}

const EXAMPLES = `${examples([
  ["docklens clusters", "every cluster, its engine version and state"],
  ["docklens containers local", "containers of the cluster named local"],
  ["docklens containers 2 --running", "running containers of the cluster with id 2"],
  ["docklens ps --filter health=unhealthy", "unhealthy containers of every cluster"],
  ["docklens images --filter dangling=true", "dangling images everywhere"],
  ["docklens volumes prod --json | jq '.Volumes[].Name'"],
  ["docklens detail container prod web", "what the engine knows of container web"],
  ["docklens detail cluster prod --json"],
  ["docklens logs prod web --since 10m -f", "new lines until Ctrl-C"],
  ["docklens stats prod web --stream"],
  ['docklens serve --port 8080 --token "$TOKEN"', "the same as an HTTP JSON interface"],
])}

Config: --config <path>, else $DOCKLENS_CONFIG, else .docklensrc[.json|.yaml],
docklens.config.{json,yaml,js,ts} or ~/.config/docklens/config.yaml. With none,
every engine this machine knows: "local", the one the docker CLI uses now
($DOCKER_HOST, else the current docker context, else /var/run/docker.sock), every
other docker context by its name, and "podman" when a Podman socket exists
(docklens config shows them).

Docker's words work too: container ls is ps, image ls images, system df df,
container inspect detail container, network ls networks, volume ls volumes;
inspect <cluster> <name> is docker inspect.`;

/**
 * The commander program, from the command table; exported for tests of the usage text. Given
 * the first word of a run (`containers`), only that command's entries are made: the others
 * would cost every run their options and help, and only help and suggestions read them.
 */
export function createProgram(command?: string): Command {
  const program = new Command("docklens")
    .description("Inspect many Docker engines at once, read-only.")
    .version(pkg.version, "-v, --version")
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .addHelpText("after", EXAMPLES)
    .hook("preAction", inheritOptions);
  // --config and --json before the command mean what they mean after it (inheritOptions).
  for (const option of COMMON_OPTIONS) program.option(option.flags, option.description);
  const only = COMMANDS.some((spec) => spec.name[0] === command) ? command : undefined;
  for (const spec of COMMANDS) if (!only || spec.name[0] === only) addCommand(program, spec);
  return program;
}

/** One entry of the table as a commander command, under its parent (`detail`, `token`). */
function addCommand(program: Command, spec: AnyCommandSpec): void {
  const parent = spec.name
    .slice(0, -1)
    .reduce((command, word) => command.commands.find((sub) => sub.name() === word)!, program);
  // Commander hands a parent's allowExcessArguments down to the commands made after it: each
  // command refuses arguments it does not take, as docker's do.
  const command = parent
    .command(spec.name.at(-1)!)
    .description(spec.description)
    .allowExcessArguments(false);
  // With subcommands and an action of its own, commander takes a misspelt subcommand for an
  // argument: `detail containr` is caught in the action instead.
  if (parent !== program) parent.allowExcessArguments();
  // A leading cluster may be left out (left-out-cluster.ts): to commander every argument is
  // optional then, and the action counts them.
  const lone = leadsWithCluster(spec);
  for (const [name, description] of spec.args ?? [])
    command.argument(lone ? name.replace(/^<(.*)>$/, "[$1]") : name, description);
  if (lone)
    command.usage(["[options] [cluster]", ...spec.args!.slice(1).map(([name]) => name)].join(" "));
  for (const option of [...(spec.bare ? [] : COMMON_OPTIONS), ...(spec.options ?? [])]) {
    if (option.parse) command.option(option.flags, option.description, usageChecked(option));
    else command.option(option.flags, option.description, option.default);
  }
  if (spec.rest) command.allowUnknownOption();
  if (spec.examples.length) command.addHelpText("after", examples(spec.examples));
  command.action(async (...params: unknown[]) => {
    const args = params.slice(0, -2);
    const options = command.opts<CommandOptions>();
    if (command.commands.length && command.args.length > args.length)
      return unknownSubcommand(command);
    // A group alone (`token`) prints its help and exits 0, as docker's groups do.
    if (!spec.call && !spec.action) return command.help();
    const missing = missingArgument(spec, args);
    if (missing)
      command.error(`error: missing required argument '${missing}'`, {
        code: "commander.missingArgument",
      });
    const problem = spec.check?.(args, options);
    if (problem) command.error(`error: ${problem}`, { exitCode: 2 });
    if (spec.action) return spec.action(args, options, command);
    return (await import("./run.ts")).run(spec, args, options);
  });
}

/** An option's parser whose errors commander reports as a bad value of the option (exit 2). */
function usageChecked({ parse }: OptionSpec) {
  return (value: string, previous: unknown) => {
    try {
      return parse!(value, previous);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/**
 * Run the CLI. Errors become one line on stderr and an exit code: 1 for an error of the engines
 * or of a lookup, 2 for a usage or config error; never a stack trace (docs/http-interface.md,
 * "The CLI and the interface").
 */
export async function main(argv: string[] = process.argv): Promise<void> {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0); // `docklens ... | head` closed the pipe: not an error.
  });
  const help = groupHelp(argv.slice(2));
  if (help) return void process.stdout.write(help);
  const args = normalizeArgs(argv.slice(2));
  const program = createProgram(args[commandIndex(args)]);
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride().configureOutput({
      outputError: (text, write) => write(`docklens: ${text.replace(/^error: /, "")}`),
    });
  }
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    process.exitCode = exitCodeOf(error);
  }
}

/**
 * Options given before a command (`--config f clusters`) or a subcommand (`detail --json
 * container local web`) are the parent's in commander; they mean the same to the command that
 * runs, unless it was given its own.
 */
function inheritOptions(_program: Command, action: Command): void {
  for (let parent = action.parent; parent; parent = parent.parent) {
    for (const [key, value] of Object.entries(parent.opts())) {
      const given = parent.getOptionValueSource(key);
      const own = action.getOptionValueSource(key);
      if (value !== undefined && given !== "default" && (own === undefined || own === "default"))
        action.setOptionValueWithSource(key, value, given ?? "cli");
    }
  }
}

/** `detail containr`: a usage error that names the subcommand meant, as the top level does. */
async function unknownSubcommand(command: Command): Promise<never> {
  const { default: leven } = await import("leven");
  const name = command.args[0]!;
  const closest = command.commands
    .map((sub) => sub.name())
    .sort((a, b) => leven(name, a) - leven(name, b))[0];
  const suggestion =
    closest && leven(name, closest) <= Math.max(2, Math.floor(name.length / 3))
      ? `\n(Did you mean ${closest}?)`
      : "";
  return command.error(`error: unknown command '${name}' for '${command.name()}'${suggestion}`, {
    code: "commander.unknownCommand",
  });
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}

const USAGE_ERRORS = new Set(["INVALID_CONFIG", "INVALID_QUERY", "INVALID_NAME"]);

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  const err = error as { name?: string; code?: string; message?: string };
  if (err?.name === "DocklensError") {
    // run.ts has named the flag of an input field the error is about.
    process.stderr.write(`docklens: ${escapeControls(err.message ?? "")}\n`);
    // A malformed argument (INVALID_NAME: `../x`) or flag value (INVALID_QUERY: --tail x) is a
    // usage error, like a bad config; lookups and engines that fail are errors (1).
    return USAGE_ERRORS.has(err.code ?? "") ? 2 : 1;
  }
  process.stderr.write(`docklens: unexpected error: ${err?.message ?? String(error)}\n`);
  return 1;
}
