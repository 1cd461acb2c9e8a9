// Which arguments of `ps` (procps, as the engine's top runs it on the engine's host) print each
// process's environment, where secrets are (docs/http-interface.md, "Secrets").

/** BSD options of procps that take an argument: the rest of the word, or the next word. */
const BSD_ARGUMENT = /[OUkopqt0-9]/;
/** SysV (`-x`) options of procps that take an argument, the same way. */
const SYSV_ARGUMENT = /[CDGOUgopqstu]/;
/** GNU (`--name`) options of procps that take an argument, after `=`, `:`, or as the next word. */
const GNU_ARGUMENT =
  /^--(Group|User|cols|columns|date-format|format|group|help|lines|pid|ppid|quick-pid|rows|sid|sort|tty|user|width)$/;
/**
 * A SysV word procps surely reads as SysV: flags that take nothing, then at most `-o`/`-O`, whose
 * format fails or holds in both readings alike. Any other SysV word may fail, and procps then
 * reads every `-word` again as BSD options (parser.c's "second chance"): `-efx` is `efx`.
 */
const SURELY_SYSV = /^-[AFHLMNPTZacdefjlmwy]*([oO].*)?$/;

/** The flags of a BSD word: its letters up to the first that takes an argument. */
const bsdFlags = (word: string) => {
  const at = word.search(BSD_ARGUMENT);
  return at === -1 ? word : word.slice(0, at + 1);
};

/**
 * Whether `ps` with these arguments prints the environment after each command: BSD's `e`
 * (`auxe`, `e`, `axeww`), also when procps reads `-word`s as BSD ones after their SysV reading
 * failed (`-auxe`, `-efx`). Arguments of options (`-o user,etime`) are no options; `-e` read as
 * SysV is "every process", no environment. When in doubt, it says yes.
 * @example
 * ```ts
 * printsEnvironment("aux"); // false
 * printsEnvironment("auxe"); // true
 * printsEnvironment("-ef"); // false
 * printsEnvironment("-ef -x"); // true: -x fails, then -ef reads as BSD's e and f
 * ```
 */
export function printsEnvironment(psArgs: string): boolean {
  const words = psArgs.split(" ").filter(Boolean);
  const dashWords: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // Trailing process ids (`1 2`, `-1`, `+1`): procps reads every word after them as ids.
    if (/^[0-9+]|^-[0-9]/.test(word)) break;
    if (word.startsWith("--")) {
      if (GNU_ARGUMENT.test(word)) i++;
      continue;
    }
    if (word.startsWith("-")) {
      dashWords.push(word);
      const flags = word.slice(1);
      const at = flags.search(SYSV_ARGUMENT);
      if (at !== -1 && at === flags.length - 1) i++;
      continue;
    }
    const flags = bsdFlags(word);
    if (flags.includes("e")) return true;
    // `o pid,comm`: the option ends the word, its argument is the next.
    if (flags === word && /[OUkopqt]$/.test(word)) i++;
  }
  // The second reading: only if one `-word` may fail as SysV, and then each reads as BSD.
  return (
    dashWords.some((word) => !SURELY_SYSV.test(word)) &&
    dashWords.some((word) => bsdFlags(word.slice(1)).includes("e"))
  );
}
