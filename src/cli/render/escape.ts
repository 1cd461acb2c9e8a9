// Engine data never reaches a terminal as control characters: a label holding `\e]0;title\a`
// would retitle it, `\e[31m` recolour it. Human output shows them as `docker inspect` (Go's JSON)
// writes them; `logs` and `attach` print a container's output as it is, as docker's do.

/** C0 controls, DEL and C1 controls (a terminal reads `\x9b` as `\e[`). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `text` with each control character written as Go's JSON writes it: `\n`, `\r`, `\t`, else
 * `\u001b` and the like; with `keepLines`, newlines and tabs stay (text a view laid out itself,
 * such as JSON, whose strings hold none).
 * @example
 * ```ts
 * escapeControls("\u001b]0;title\u0007"); // "\\u001b]0;title\\u0007"
 * ```
 */
export function escapeControls(text: string, { keepLines = false } = {}): string {
  return text.replace(CONTROLS, (c) =>
    keepLines && (c === "\n" || c === "\t")
      ? c
      : (SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

/**
 * A result with every string in it (values and keys of plain objects and arrays, at any depth)
 * passed through {@link escapeControls}: what every view is given, so that no view can forget it.
 * Other objects (a `Map`, a `Date`) are kept as they are.
 */
export function escapeStrings<T>(value: T): T {
  if (typeof value === "string") return escapeControls(value) as T;
  if (Array.isArray(value)) return value.map(escapeStrings) as T;
  if (value === null || typeof value !== "object") return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [escapeControls(key), escapeStrings(item)]),
  ) as T;
}
