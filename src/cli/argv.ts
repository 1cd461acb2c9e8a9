// A command line as docklens reads it before commander does: docker's spellings of its commands
// become docklens', and `--watch` followed by something other than seconds takes none.
import { COMMON_OPTIONS, SECONDS } from "../operations/parts.ts";

/**
 * Docker's words for a docklens command, each where exactly one docklens command does what
 * docker's does (README, "CLI usage"): `docklens container ls` is `docklens ps`.
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
  ["inspect", "detail"],
];

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
