/**
 * How two strings are ordered: `"code-unit"` compares UTF-16 code units, as `<` does, the same on
 * every machine (docker's own sorts of names, references and ports are byte-wise, and JSON bodies
 * must not depend on where docklens runs); `"locale"` is `localeCompare` in the runtime's locale,
 * as the CLI's tables read for people (`a` before `B`).
 */
export type Collation = "code-unit" | "locale";

/**
 * The one string comparator of docklens, for `Array.prototype.sort`: negative when `a` comes
 * first, positive when `b` does, 0 for equal strings (or strings the locale ranks alike).
 *
 * @example
 * ["b", "B", "a"].sort((x, y) => compareStrings(x, y)); // ["B", "a", "b"]
 * ["b", "B", "a"].sort((x, y) => compareStrings(x, y, "locale")); // ["a", "b", "B"] in English
 */
export function compareStrings(a: string, b: string, collation: Collation = "code-unit"): number {
  if (collation === "locale") return a.localeCompare(b);
  return a < b ? -1 : a > b ? 1 : 0;
}
