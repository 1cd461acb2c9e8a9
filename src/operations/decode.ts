// The decoder of operation inputs (input.ts): each field's kind as a zod schema that checks a
// value and turns it into the field's type, one rule a kind for the server's query strings, the
// CLI's flags and the MCP server's tool arguments. zod/mini, as the config's schema: the bundle
// keeps only the checks used, and only a run that decodes an input loads it.
import { z } from "zod/mini";
import { TAIL } from "../core/containers/logs.ts";
import { BOOLEAN_VALUES, parseFilters } from "../core/engine/filters.ts";
import { DocklensError } from "../core/errors.ts";
import { BOUNDS, type FieldDecl, type InputDecl, type InputOf, type RawInput } from "./input.ts";
import { parseTime } from "./time.ts";

/** A value checked by `read`: its result, or what was expected instead. */
type Rule<T> = (value: unknown) => { value: T } | { expected: string };

/** `read` as a zod schema: what it does not take is an issue saying what was expected. */
function ruled<T>(read: Rule<T>) {
  return z.pipe(
    z.unknown(),
    z.transform((value: unknown, ctx) => {
      const result = read(value);
      if ("value" in result) return result.value;
      ctx.issues.push({ code: "custom", message: result.expected, input: value });
      return z.NEVER;
    }),
  );
}

/** A value as an error message quotes it: short, and as JSON. */
const quote = (value: unknown) =>
  typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : String(JSON.stringify(value));

/** One of `values`, given as text (a query string, a flag) or as itself (a tool argument). */
function oneOf<T>(
  values: readonly string[],
  read: (text: string) => T,
  alone?: (v: unknown) => boolean,
  said = values.join(", "),
): Rule<T> {
  return (value) =>
    typeof value === "string" && values.includes(value)
      ? { value: read(value) }
      : alone?.(value)
        ? { value: value as T }
        : { expected: `expected ${said}, got ${quote(value)}` };
}

const text: Rule<string> = (value) =>
  typeof value === "string" ? { value } : { expected: `expected text, got ${quote(value)}` };

/** A repeatable field: a list of at most `max` values, each one `item`. */
function list<T>(item: z.core.$ZodType<T>, max: number) {
  return z
    .array(item, {
      error: (issue) => `expected a list of values, got ${quote(issue.input)}`,
    })
    .check(
      z.maxLength(max, {
        error: (issue) => `at most ${max} values, got ${(issue.input as []).length}`,
      }),
    );
}

/** Text of at most `length` characters. */
function bounded(length: number) {
  return ruled((value) =>
    typeof value !== "string"
      ? { expected: `expected text, got ${quote(value)}` }
      : [...value].length > length
        ? { expected: `a value is at most ${length} characters` }
        : { value },
  );
}

/** The schema of a field of `field`'s kind, named `name` (in the messages of parseTime). */
function fieldSchema(name: string, field: FieldDecl) {
  switch (field.kind) {
    case "filter":
      return z.pipe(
        list(bounded(BOUNDS.filterLength), BOUNDS.filters),
        z.transform((entries: string[]) => parseFilters(field.of, entries)),
      );
    case "clusters":
      return list(bounded(BOUNDS.clusterLength), BOUNDS.clusters);
    case "time":
      return z.pipe(
        ruled(text),
        z.transform((value: string) => parseTime(name, value)),
      );
    case "boolean":
      return ruled(
        oneOf(
          BOOLEAN_VALUES,
          (value) => value === "true" || value === "1",
          (value) => typeof value === "boolean",
          "true, false, 1 or 0",
        ),
      );
    case "tail":
      return ruled((value) =>
        typeof value === "string" && TAIL.test(value)
          ? { value: value === "all" ? ("all" as const) : Number(value) }
          : Number.isSafeInteger(value) && (value as number) >= 0
            ? { value: value as number }
            : { expected: `expected a number of lines or "all", got ${quote(value)}` },
      );
    case "choice":
      return ruled(oneOf(field.values, (value) => value));
    case "choices":
      return z.pipe(
        list(ruled(oneOf(field.values, (value) => value)), field.values.length),
        // Each kind once, in the order given.
        z.transform((values: string[]) => [...new Set(values)]),
      );
    case "psArgs":
    case "name":
    case "pattern":
      // What such text must be beyond text, the core checks where it uses it.
      return ruled(text);
  }
}

/** The schema of each input declared, made once. */
const schemas = new WeakMap<InputDecl, z.ZodMiniType>();

function schemaOf(decl: InputDecl): z.ZodMiniType {
  let schema = schemas.get(decl);
  if (!schema) {
    const shape = Object.fromEntries(
      Object.entries(decl).map(([name, field]) => [name, z.optional(fieldSchema(name, field))]),
    );
    schemas.set(decl, (schema = z.object(shape)));
  }
  return schema;
}

/**
 * `raw` checked against `decl` and decoded; a field it lacks is left out, one `decl` does not
 * declare is ignored (each face refuses those in its own words). A bad value is
 * `INVALID_QUERY` naming its field (DocklensError's `param`).
 */
export function decode<D extends InputDecl>(decl: D, raw: RawInput): InputOf<D> {
  // Only the fields declared, and only those given: a face's unset option is no value.
  const given = Object.fromEntries(
    Object.keys(decl).flatMap((name) => (raw[name] === undefined ? [] : [[name, raw[name]]])),
  );
  const result = schemaOf(decl).safeParse(given);
  if (result.success) return result.data as InputOf<D>;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0]);
  throw new DocklensError("INVALID_QUERY", `${field}: ${issue.message}`, { param: field });
}
