// docker's --format for lists (cli/command/formatter/formatter.go): a Go template a row, `json`
// (a JSON object a row), `table` (the default table) and `table TEMPLATE` (a header row from
// docker's header names, then the rows, aligned by docker's tabwriter).
import { BUILTINS } from "./template-builtins.ts";
import { parseTemplate } from "./template-parse.ts";
import {
  executeTemplate,
  printed,
  type TemplateData,
  type TemplateFunctions,
  type TemplateValue,
} from "./template-run.ts";

/** What docker's formatter knows of one kind of row: its fields' headers and its Go type name. */
export interface RowKind {
  /** Each field's header in a table (`Names` → `NAMES`). */
  headers: Record<string, string>;
  /** The type docker names in an error (`*formatter.ContainerContext`). */
  type: string;
}

/**
 * A row's fields as json.Marshal writes them where that differs from what a template prints
 * (docker's `Platform`: `linux/amd64` to `{{.Platform}}`, an object to `{{json .}}`).
 */
export const GO_JSON: unique symbol = Symbol("MarshalJSON");

/** A row whose `{{json .}}` writes some fields otherwise than templates print them. */
export type MarshaledRow = TemplateData & { [GO_JSON]?: Record<string, unknown> };

const text = (value: TemplateValue) => (typeof value === "string" ? value : printed(value));
const count = (value: TemplateValue) => Number(value);

/** docker's template functions (cli/templates/templates.go) and Go's predefined ones. */
export const FUNCTIONS: TemplateFunctions = {
  ...BUILTINS,
  json: (value) => goJson(value),
  split: (value, separator) =>
    separator === "" ? Array.from(text(value)) : text(value).split(text(separator)),
  join: (value, separator) =>
    value === null
      ? ""
      : Array.isArray(value)
        ? value.map(text).join(text(separator))
        : text(value),
  // strings.Title: a letter after a separator (ASCII but letters, digits and `_`; any space).
  title: (value) =>
    text(value).replace(
      /(^|[\0-/:-@[-^`{-\x7f]|\s)(\p{L})/gu,
      (_, a: string, b: string) => a + b.toUpperCase(),
    ),
  lower: (value) => text(value).toLowerCase(),
  upper: (value) => text(value).toUpperCase(),
  pad: (value, prefix, suffix) =>
    text(value) === "" ? "" : " ".repeat(count(prefix)) + text(value) + " ".repeat(count(suffix)),
  truncate: (value, length) => Array.from(text(value)).slice(0, count(length)).join(""),
};

// The header row keeps the names as they are (templates.HeaderFunctions), but for pad.
const HEADER_FUNCTIONS: TemplateFunctions = {
  ...FUNCTIONS,
  ...Object.fromEntries(
    ["json", "split", "join", "title", "lower", "upper", "truncate"].map((name) => [
      name,
      (value: TemplateValue) => (typeof value === "string" ? value : ""),
    ]),
  ),
};

/**
 * A value as Go's encoding/json writes it: a row (docker's MarshalJSON) as an object of its
 * fields, sorted, with `<`, `>` and `&` escaped as json.Marshal does; anything else as
 * `{{json}}` writes it, without that escaping.
 */
function goJson(value: TemplateValue): string {
  const escape = (json: string) =>
    json.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return escape(JSON.stringify(value));
  const marshaled = (value as MarshaledRow)[GO_JSON] ?? {};
  const fields = Object.keys(value)
    .filter((key) => typeof value[key] !== "function" && value[key] !== undefined)
    .sort()
    .map((key) => [key, key in marshaled ? marshaled[key] : value[key]]);
  return escape(JSON.stringify(Object.fromEntries(fields))).replace(
    /[<>&]/g,
    (c) => `\\u00${c.charCodeAt(0).toString(16)}`,
  );
}

/**
 * Rows printed with a `--format` value, as docker prints a list: `json` is `{{json .}}`; `table`
 * alone is the command's own table (`defaultTable`); `table TEMPLATE` gets a header row; `\t` and
 * `\n` written as two characters mean a tab and a newline. An unknown field or function, or what
 * the subset cannot parse, throws a template error (exit 2) before anything prints.
 */
export function formatRows(
  format: string,
  rows: TemplateData[],
  kind: RowKind,
  defaultTable: () => string,
): string {
  const table = format.startsWith("table");
  let source = table ? format.slice("table".length) : format === "json" ? "{{json .}}" : format;
  source = source
    .replace(/^ +| +$/g, "")
    .replaceAll("\\t", "\t")
    .replaceAll("\\n", "\n");
  // An empty format is the default table, as docker's is.
  if (source === "" && (table || format === "")) return defaultTable();
  const template = parseTemplate(source, FUNCTIONS, {
    names: Object.keys(kind.headers),
    type: kind.type,
  });
  const lines = rows.map((row) => executeTemplate(template, row, FUNCTIONS));
  if (!table) return lines.join("\n");
  const header = executeTemplate(template, headerData(kind.headers), HEADER_FUNCTIONS);
  return tabwriter([header, ...lines].join("\n"));
}

/** The header row's data: each field's header, and `.Label "a.b-c"` as docker heads it (`b c`). */
function headerData(headers: Record<string, string>): TemplateData {
  return {
    ...headers,
    ...("Label" in headers
      ? { Label: (name: TemplateValue) => text(name).split(".").at(-1)!.replace(/[-_]/g, " ") }
      : {}),
  };
}

/**
 * Text aligned as docker's tabwriter aligns a table (`tabwriter.NewWriter(out, 10, 1, 3, ' ', 0)`,
 * Go's text/tabwriter): a cell ends at a tab; a column of consecutive lines is as wide as its
 * widest cell plus 3, and at least 10; the last cell of a line is not padded.
 */
export function tabwriter(input: string, minWidth = 10, padding = 3): string {
  const lines = input.split("\n").map((line) => line.split("\t"));
  const width = (cell: string) => Array.from(cell).length;
  const widths: number[] = [];
  const out: string[] = [];
  const write = (from: number, to: number) => {
    for (const line of lines.slice(from, to))
      out.push(
        line
          .map((cell, column) =>
            column < widths.length
              ? cell + " ".repeat(Math.max(0, widths[column]! - width(cell)))
              : cell,
          )
          .join(""),
      );
  };
  // Go's Writer.format: a block of lines that all have a cell in this column gets one width.
  const format = (first: number, end: number) => {
    const column = widths.length;
    let start = first;
    for (let at = first; at < end; at++) {
      if (column >= lines[at]!.length - 1) continue;
      write(start, at);
      start = at;
      let cellWidth = minWidth;
      for (; at < end && column < lines[at]!.length - 1; at++)
        cellWidth = Math.max(cellWidth, width(lines[at]![column]!) + padding);
      widths.push(cellWidth);
      format(start, at);
      widths.pop();
      start = at;
      at--;
    }
    write(start, end);
  };
  format(0, lines.length);
  return out.join("\n");
}
