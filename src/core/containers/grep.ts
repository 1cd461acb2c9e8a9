import { invalidInput } from "../errors.ts";
import { grepLiteral } from "./grep-literal.ts";

/** Longest `grep` pattern taken: a pattern is compiled per request, and its automaton grows with it. */
export const MAX_GREP_LENGTH = 256;

/** A test of a line, with the literal every line it passes contains, when there is one. */
export interface LineTest {
  (text: string): boolean;
  /** Lines without it fail: a scan may drop them by a substring search first. */
  readonly literal?: string;
}

/**
 * A test of lines against `pattern`, a regular expression in RE2's syntax (as Go's, and docker's
 * own filters', regular expressions read). It runs in time linear in the line, whatever the
 * pattern: JavaScript's backtracking engine takes exponential time on `(a+)+$` over a long line,
 * which would stall the server for everyone. re2js is loaded on first use. A pattern over
 * {@link MAX_GREP_LENGTH} characters, or one RE2 does not read, is `INVALID_QUERY`.
 *
 * @example
 * const panics = await compileGrep("panic: .*nil");
 * ["panic: nil map", "ok"].filter(panics); // ["panic: nil map"]; panics.literal is "panic: "
 */
export async function compileGrep(pattern: string): Promise<LineTest> {
  if (pattern.length > MAX_GREP_LENGTH)
    invalidInput("grep", `expected a pattern of at most ${MAX_GREP_LENGTH} characters`);
  const { RE2JS } = await import("re2js");
  let compiled: InstanceType<typeof RE2JS>;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    invalidInput(
      "grep",
      `expected a regular expression (RE2 syntax): ${(error as Error).message.slice(0, 120)}`,
    );
  }
  const literal = grepLiteral(pattern);
  if (literal === undefined) return (text: string) => compiled.test(text);
  // A substring search costs a tenth of RE2's run over a line that has no match.
  return Object.assign((text: string) => text.includes(literal) && compiled.test(text), {
    literal,
  });
}
