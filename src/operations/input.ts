// An operation's one typed input: its fields, each by the kind of value it takes. The TypeScript
// type of the decoded input, the OpenAPI query parameters (operations/input-schema.ts), the CLI's
// flags (an option names the field it fills) and an MCP tool's arguments are all read off it;
// decode.ts checks a request, a command line or a tool call against it, by one set of rules.
// Declarations only: `docklens --help` reads them and loads no decoder (nor zod).
import type { EngineFilters } from "../core/engine/filters.ts";
import type { FilterKind } from "../core/filter-keys.ts";

/**
 * A field of an input, by the kind of value it takes. `filter`, `clusters` and `choices` repeat;
 * the others come once, with a description (`name` a name as names.ts checks them, `pattern`
 * any text up to `maxLength`).
 */
export type FieldDecl =
  | { kind: "filter"; of: FilterKind }
  | { kind: "clusters" }
  | { kind: "time" | "boolean" | "tail" | "psArgs"; description: string }
  | { kind: "choice"; description: string; values: readonly string[] }
  | { kind: "choices"; description: string; values: readonly string[] }
  | { kind: "name" | "pattern"; description: string; maxLength: number };

/** An operation's input: its fields by name (the query parameter's, the tool argument's). */
export type InputDecl = Readonly<Record<string, FieldDecl>>;

/** What a field holds once decoded. */
type ValueOf<F extends FieldDecl> = F extends { kind: "filter" }
  ? EngineFilters
  : F extends { kind: "clusters" }
    ? string[]
    : F extends { kind: "time" }
      ? number
      : F extends { kind: "boolean" }
        ? boolean
        : F extends { kind: "tail" }
          ? number | "all"
          : F extends { kind: "choice"; values: readonly (infer V)[] }
            ? V
            : F extends { kind: "choices"; values: readonly (infer V)[] }
              ? V[]
              : string;

/** The decoded input of `D`: each field it was given, as its kind's value (of any input, unknown). */
export type InputOf<D extends InputDecl> = string extends keyof D
  ? Readonly<Record<string, unknown>>
  : { -readonly [K in keyof D]?: ValueOf<D[K]> };

/**
 * An input as a face hands it over: a query string's values, a command's parsed options (a
 * flag alone is `true`), or a tool call's JSON arguments.
 */
export type RawInput = Readonly<Record<string, unknown>>;

/** Whether a field may be given more than once (`filter=a=1&filter=b=2`). */
export const repeats = (field: FieldDecl): boolean =>
  field.kind === "filter" || field.kind === "clusters" || field.kind === "choices";

/**
 * How many times a repeatable field may be given, and how long a filter may be: bounds that
 * keep the largest request the document allows within the server's MAX_HEADER_BYTES
 * (test/unit/request-size.test.ts checks it).
 */
export const BOUNDS = { clusters: 100, clusterLength: 255, filters: 20, filterLength: 256 };
