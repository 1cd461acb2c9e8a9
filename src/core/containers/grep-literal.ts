// A literal every line an RE2 pattern matches must contain, so that a scan can drop the lines
// without it by a plain substring search (SQLite's `instr`, `String#includes`) before the regular
// expression runs. Conservative: any construct it does not follow gives no literal, never a wrong
// one, since a wrong literal would hide lines the pattern matches.

/** Single-letter escapes that match a class or a position, never a literal character. */
const CLASS_ESCAPES = new Set("dDwWsSbBAz");
/** Characters that end a literal run without being part of it. */
const BREAKS = new Set(".^$");
/** Shorter literals filter too little to pay for the search. */
const MIN_LITERAL = 3;

/**
 * The longest literal (at least 3 characters) that every match of `pattern` contains, read from
 * its top level only; `undefined` when the pattern has an alternation, flags (`(?i)`), or an
 * escape that is not a plain punctuation character or a class.
 *
 * @example
 * grepLiteral("items/4242[0-9] 200"); // "items/4242"
 * grepLiteral("panic|fatal"); // undefined
 */
export function grepLiteral(pattern: string): string | undefined {
  if (pattern.includes("|") || pattern.includes("(?")) return undefined;
  const runs: string[] = [];
  let run = "";
  let depth = 0;
  const close = () => {
    runs.push(run);
    run = "";
  };
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at]!;
    if (char === "\\") {
      const next = pattern[at + 1];
      if (next === undefined) return undefined;
      at++;
      if (/[A-Za-z0-9]/.test(next)) {
        if (!CLASS_ESCAPES.has(next)) return undefined;
        close();
      } else if (depth === 0) run += next;
    } else if (char === "[") {
      // A class is one character of a set: skip to its end (`]` first in it is literal).
      at = pattern[at + 1] === "^" ? at + 1 : at;
      at = pattern[at + 1] === "]" ? at + 1 : at;
      while (at + 1 < pattern.length && pattern[at + 1] !== "]")
        at += pattern[at + 1] === "\\" ? 2 : 1;
      at++;
      close();
    } else if (char === "(") {
      depth++;
      close();
    } else if (char === ")") {
      depth--;
      close();
    } else if (char === "*" || char === "?" || char === "{") {
      // The atom before may be absent: it leaves the run.
      run = run.slice(0, -1);
      close();
      if (char === "{") while (at < pattern.length && pattern[at] !== "}") at++;
    } else if (char === "+" || BREAKS.has(char)) close();
    else if (depth === 0) run += char;
  }
  close();
  const longest = runs.reduce((best, one) => (one.length > best.length ? one : best), "");
  return longest.length >= MIN_LITERAL ? longest : undefined;
}
