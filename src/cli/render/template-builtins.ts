// Go's predefined template functions (text/template/funcs.go) that docker's templates use:
// comparisons, `index`, `slice`, `len`, `not`, `print`, `printf`, `println`; `and` and `or` are
// read here and run lazily by template-run.ts, as Go runs them. An error thrown here is Go's
// `error calling NAME: ...`.
import { goType, isNil, printed, sprintf } from "./template-print.ts";
import type { TemplateFunctions, TemplateValue } from "./template-tree.ts";

/** Go's truth of a value: false for nil, false, 0, "" and an empty list or map. */
export function isTrue(value: TemplateValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object")
    // A row of docker's formatter is a struct, always true; a map is true when it has keys.
    return (
      Object.values(value).some((item) => typeof item === "function") ||
      Object.keys(value).length > 0
    );
  return Boolean(value);
}

/** Functions that take any number of arguments from the first: how many they need at least. */
export const VARIADIC: Readonly<Record<string, number>> = {
  and: 1,
  or: 1,
  eq: 1,
  index: 1,
  slice: 1,
  print: 0,
  println: 0,
  printf: 1,
  html: 0,
  js: 0,
  urlquery: 0,
};

const kind = (value: TemplateValue) =>
  value === null ? "nil" : Array.isArray(value) ? "slice" : typeof value;

/** Go's eq, lt: only basic values of one kind compare; nil equals only nil. */
function compare(a: TemplateValue, b: TemplateValue, ordered: boolean): number {
  if (!ordered && (a === null || b === null)) return a === b ? 0 : 1;
  const basic = (value: TemplateValue) =>
    ["string", "number"].includes(kind(value)) || (!ordered && kind(value) === "boolean");
  if (!basic(a) || !basic(b))
    throw new Error(ordered ? "invalid type for comparison" : "non-comparable type");
  if (kind(a) !== kind(b)) throw new Error("incompatible types for comparison");
  return a === b ? 0 : (a as string | number) < (b as string | number) ? -1 : 1;
}

/** The zero value of a map's elements, for `index` of a key it lacks: as its other values'. */
function zeroOf(map: Record<string, unknown>): TemplateValue {
  const sample = Object.values(map).find((value) => value !== null);
  if (typeof sample === "number") return 0;
  if (typeof sample === "boolean") return false;
  if (Array.isArray(sample)) return [];
  if (typeof sample === "object") return null;
  return "";
}

function indexOne(item: TemplateValue, key: TemplateValue): TemplateValue {
  if (item === null) throw new Error("index of untyped nil");
  if (Array.isArray(item) || typeof item === "string") {
    if (typeof key !== "number" || !Number.isInteger(key))
      throw new Error("cannot index slice/array with type " + goType(key));
    const length = typeof item === "string" ? Buffer.byteLength(item) : item.length;
    if (key < 0 || key >= length) throw new Error(`index out of range: ${key}`);
    return typeof item === "string" ? Buffer.from(item)[key]! : item[key]!;
  }
  if (typeof item === "object") {
    if (typeof key !== "string") throw new Error(`value has type ${goType(key)}; should be string`);
    return Object.hasOwn(item, key) ? (item[key] as TemplateValue) : zeroOf(item);
  }
  throw new Error(`can't index item of type ${goType(item)}`);
}

function sliceOf(item: TemplateValue, ...bounds: TemplateValue[]): TemplateValue {
  if (typeof item !== "string" && !Array.isArray(item))
    throw new Error(`can't slice item of type ${goType(item)}`);
  if (bounds.length > 2 && typeof item === "string")
    throw new Error("cannot 3-index slice a string");
  const length = item.length;
  const [from = 0, to = length] = bounds.map(Number);
  if (from < 0 || to > length || from > to)
    throw new Error(`index out of range: ${from > to ? from : to}`);
  return item.slice(from, to);
}

function length(item: TemplateValue): number {
  if (item === null) throw new Error("len of nil pointer");
  if (typeof item === "string") return Buffer.byteLength(item);
  if (Array.isArray(item)) return item.length;
  if (typeof item === "object" && !isNil(item)) return Object.keys(item).length;
  if (isNil(item)) return 0;
  throw new Error(`len of type ${goType(item)}`);
}

/** Go's Sprint: a space between two operands when neither is a string. */
function sprint(values: TemplateValue[]): string {
  return values
    .map((value, index) =>
      index > 0 && typeof value !== "string" && typeof values[index - 1] !== "string"
        ? ` ${printed(value)}`
        : printed(value),
    )
    .join("");
}

/** The text of escaping functions' arguments (Go's evalArgs): a lone string, else Sprint's. */
const textOf = (values: TemplateValue[]) =>
  values.length === 1 && typeof values[0] === "string" ? values[0] : sprint(values);

const HTML: Record<string, string> = {
  '"': "&#34;",
  "'": "&#39;",
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\0": "\uFFFD",
};
const JS: Record<string, string> = { "\\": "\\\\", "'": "\\'", '"': '\\"' };

/** Go's JSEscapeString: quotes and backslashes escaped, `<>&=` and control characters as `\uXXXX`. */
function jsEscape(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  return text.replace(/[\\'"<>&=\0-\x1f\x80-\x9f\u2028\u2029]/g, (char) => {
    const code = char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return JS[char] ?? `\\u${code}`;
  });
}

/** Go's predefined functions, by name; `and` and `or` here only for their names and arity. */
export const BUILTINS: TemplateFunctions = {
  and: (...values) => values.find((value) => !isTrue(value)) ?? values.at(-1)!,
  or: (...values) => values.find((value) => isTrue(value)) ?? values.at(-1)!,
  not: (value) => !isTrue(value),
  len: (value) => length(value),
  index: (item, ...keys) => keys.reduce<TemplateValue>(indexOne, item),
  slice: (item, ...bounds) => sliceOf(item, ...bounds),
  eq: (first, ...others) => {
    if (!others.length) throw new Error("missing argument for comparison");
    return others.some((other) => compare(first, other, false) === 0);
  },
  ne: (a, b) => compare(a, b, false) !== 0,
  lt: (a, b) => compare(a, b, true) < 0,
  le: (a, b) => compare(a, b, true) <= 0,
  gt: (a, b) => compare(a, b, true) > 0,
  ge: (a, b) => compare(a, b, true) >= 0,
  print: (...values) => sprint(values),
  printf: (format, ...values) =>
    sprintf(typeof format === "string" ? format : printed(format), values),
  println: (...values) => `${values.map(printed).join(" ")}\n`,
  html: (...values) => textOf(values).replace(/["'&<>\0]/g, (char) => HTML[char]!),
  js: (...values) => jsEscape(textOf(values)),
  // url.QueryEscape: all but letters, digits and `-_.~` as %XX of their UTF-8, a space as `+`.
  urlquery: (...values) =>
    encodeURIComponent(textOf(values))
      .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
      .replaceAll("%20", "+"),
};
