// A command line as docklens reads it before commander does: docker's spellings of its commands
// become docklens', and `--watch` followed by something other than seconds takes none.
import { COMMON_OPTIONS, SECONDS } from "../operations/parts.ts";

/**
 * Docker's words for a docklens command, each where exactly one docklens command does what
 * docker's does (docs/guide/cli.md): `docklens container ls` is `docklens ps`.
 */
export const DOCKER_WORDS: ReadonlyArray<readonly [docker: string, docklens: string]> = [
  ["container ls", "ps"],
  ["container list", "ps"],
  ["container ps", "ps"],
  ["container inspect", "detail container"],
  ["container logs", "logs"],
  ["container stats", "stats"],
  ["container top", "top"],
  ["container attach", "attach"],
  ["image ls", "images"],
  ["image list", "images"],
  ["image inspect", "detail image"],
  ["network ls", "networks"],
  ["network list", "networks"],
  ["network inspect", "detail network"],
  ["volume ls", "volumes"],
  ["volume list", "volumes"],
  ["volume inspect", "detail volume"],
  ["system df", "df"],
  ["system events", "events"],
  ["inspect container", "detail container"],
  ["inspect image", "detail image"],
  ["inspect volume", "detail volume"],
  ["inspect network", "detail network"],
  ["inspect cluster", "detail cluster"],
];

/**
 * The groups of docker's words (`container`, `image`): alone, each prints its help, as docker's
 * do. `inspect` is a command of its own, whose first word names a kind for `detail`.
 */
const GROUPS = [
  ...new Set(
    DOCKER_WORDS.map(([docker]) => docker.split(" ")[0]!).filter((word) => word !== "inspect"),
  ),
];

/**
 * A group of docker's words alone (`docklens container`, `docklens image --help`): its help,
 * each docker command it has and the docklens command it is, for stdout (exit 0) as docker's
 * groups print theirs; `undefined` for anything else.
 */
export function groupHelp(args: readonly string[]): string | undefined {
  const at = commandIndex(args);
  const group = args[at];
  const rest = args.slice(at + 1);
  if (at === -1 || !GROUPS.includes(group!) || rest.some((arg) => !/^(-h|--help)$/.test(arg)))
    return undefined;
  const words = DOCKER_WORDS.filter(([docker]) => docker.startsWith(`${group} `)).map(
    ([docker, docklens]) => [docker.slice(group!.length + 1), `docklens ${docklens}`] as const,
  );
  const width = Math.max(...words.map(([word]) => word.length));
  return (
    `Usage: docklens ${group} COMMAND\n\n` +
    `docker's ${group} commands, as docklens runs them:\n` +
    `${words.map(([word, docklens]) => `  ${word.padEnd(width)}   ${docklens}`).join("\n")}\n`
  );
}

/** The global options that take a value (`-c <path>`): their value is no command. */
const VALUED = new Set(
  COMMON_OPTIONS.filter((option) => option.flags.includes("<")).flatMap(
    (option) => option.flags.match(/-[\w-]+/g) ?? [],
  ),
);

/** Where the command's first word is in `args`: the first that is no global option or its value. */
export function commandIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    if (VALUED.has(args[i]!)) i++;
    else if (!args[i]!.startsWith("-")) return i;
  }
  return -1;
}

/**
 * The arguments (after `node docklens`) as commander should read them: docker's words for a
 * command in docklens' ({@link DOCKER_WORDS}), and a `-w`/`--watch` followed by a word that is
 * not a number of seconds moved to the end, where it takes none: `ps -w prod` is `ps prod -w`.
 * @example
 * ```ts
 * normalizeArgs(["container", "ls", "-a"]); // ["ps", "-a"]
 * normalizeArgs(["ps", "-w", "prod"]); // ["ps", "prod", "-w"]
 * ```
 */
export function normalizeArgs(args: readonly string[]): string[] {
  const at = commandIndex(args);
  if (at === -1) return [...args];
  const words = args.slice(at);
  const match = DOCKER_WORDS.find(([docker]) =>
    docker.split(" ").every((word, index) => words[index] === word),
  );
  const command = match
    ? [...match[1].split(" "), ...words.slice(match[0].split(" ").length)]
    : words;
  const end = command.includes("--") ? command.indexOf("--") : command.length;
  const watch = command.findIndex(
    (arg, index) =>
      index < end - 1 &&
      (arg === "-w" || arg === "--watch") &&
      !command[index + 1]!.startsWith("-") &&
      !SECONDS.test(command[index + 1]!),
  );
  if (watch !== -1) command.splice(end - 1, 0, ...command.splice(watch, 1));
  return [...args.slice(0, at), ...command];
}
