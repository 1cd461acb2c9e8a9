// The words of a Go text/template (text/template/parse/lex.go): text between actions, and inside
// `{{ }}` fields, variables, identifiers, literals and punctuation. Trim markers (`{{- `, ` -}}`)
// are applied here, to the text beside them; comments (`{{/* */}}`) leave nothing.
// template-parse.ts reads the words into a tree.
import { templateError } from "./template-error.ts";

/** What a word of a template is. */
export type TokenKind =
  | "text"
  | "open"
  | "close"
  | "field"
  | "variable"
  | "identifier"
  | "dot"
  | "string"
  | "number"
  | "pipe"
  | "leftParen"
  | "rightParen"
  | "declare"
  | "assign"
  | "comma"
  | "eof";

/** A word: its kind, its text (a string's value, unquoted), its byte offset in the template. */
export interface Token {
  kind: TokenKind;
  value: string;
  at: number;
  /** Whether space came before it in its action: `.A .B` are two arguments, `.A.B` one field. */
  space: boolean;
}

const SPACE = /[ \t\r\n]/;
const WORD = /^[\p{L}\d_]+/u;
const NUMBER =
  /^[+-]?(?:0[xX][\da-fA-F_]+|0[bBoO][\d_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/;
const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/** The line of byte offset `at` of `text`, for Go's `template: :LINE: ...` errors. */
export function lineOf(text: string, at: number): number {
  return text.slice(0, at).split("\n").length;
}

/** The words of `text`, ending with an `eof` word; what Go's lexer refuses throws its error. */
export function lexTemplate(text: string): Token[] {
  const tokens: Token[] = [];
  const fail = (at: number, message: string): never => {
    throw templateError(`:${lineOf(text, at)}: ${message}`);
  };
  let position = 0;
  let trimNext = false;
  while (position < text.length) {
    const open = text.indexOf("{{", position);
    let before = text.slice(position, open === -1 ? undefined : open);
    if (trimNext) before = before.replace(/^[ \t\r\n]+/, "");
    let start = open + 2;
    const trimBefore = open !== -1 && text[start] === "-" && SPACE.test(text[start + 1] ?? "");
    if (trimBefore) {
      before = before.replace(/[ \t\r\n]+$/, "");
      start += 2;
    }
    if (before) tokens.push({ kind: "text", value: before, at: position, space: false });
    if (open === -1) break;
    if (text.startsWith("/*", start)) {
      const end = text.indexOf("*/", start + 2);
      if (end === -1) fail(open, "unclosed comment");
      const close = closeAt(text, end + 2);
      if (!close) fail(open, "comment ends before closing delimiter");
      [position, trimNext] = close;
      continue;
    }
    tokens.push({ kind: "open", value: "{{", at: open, space: false });
    [position, trimNext] = lexAction(text, start, tokens, fail);
  }
  tokens.push({ kind: "eof", value: "", at: text.length, space: false });
  return tokens;
}

/** At `at`, a closing `}}` or ` -}}`: where the text after it starts, and whether to trim it. */
function closeAt(text: string, at: number): [number, boolean] | undefined {
  if (text.startsWith("}}", at)) return [at + 2, false];
  if (SPACE.test(text[at] ?? "") && text.startsWith("-}}", at + 1)) return [at + 4, true];
  return undefined;
}

/** The words of one action from `start` to its `}}`: where the text after it starts, and trim. */
function lexAction(
  text: string,
  start: number,
  tokens: Token[],
  fail: (at: number, message: string) => never,
): [number, boolean] {
  let at = start;
  let space = false;
  let depth = 0;
  const push = (kind: TokenKind, value: string, length: number) => {
    tokens.push({ kind, value, at, space });
    at += length;
    space = false;
  };
  for (;;) {
    const close = closeAt(text, at);
    if (close) {
      if (depth > 0) fail(at, "unclosed left paren");
      tokens.push({ kind: "close", value: "}}", at, space });
      return close;
    }
    const char = text[at];
    const rest = text.slice(at);
    if (char === undefined) return fail(at, "unclosed action");
    if (SPACE.test(char)) {
      at++;
      space = true;
    } else if (char === "|") push("pipe", "|", 1);
    else if (char === ",") push("comma", ",", 1);
    else if (char === "=") push("assign", "=", 1);
    else if (rest.startsWith(":=")) push("declare", ":=", 2);
    else if (char === ":") fail(at, "expected :=");
    else if (char === "(") {
      depth++;
      push("leftParen", "(", 1);
    } else if (char === ")") {
      if (--depth < 0) fail(at, `unexpected right paren`);
      push("rightParen", ")", 1);
    } else if (char === '"' || char === "`" || char === "'") {
      const [value, length] = quoted(rest, (message) => fail(at, message));
      push(char === "'" ? "number" : "string", value, length);
    } else if (char === "$" || (char === "." && !/\d/.test(rest[1] ?? ""))) {
      const word = WORD.exec(rest.slice(1))?.[0] ?? "";
      const kind = char === "$" ? "variable" : word ? "field" : "dot";
      push(kind, char + word, 1 + word.length);
      terminated(text, at, fail);
    } else if (NUMBER.test(rest)) {
      const number = NUMBER.exec(rest)![0];
      if (WORD.test(rest.slice(number.length)) || rest[number.length] === ".")
        fail(at, `bad number syntax: "${number}${rest.slice(number.length).split(/[\s})|]/)[0]}"`);
      push("number", number, number.length);
    } else if (WORD.test(rest)) {
      const word = WORD.exec(rest)![0];
      push("identifier", word, word.length);
      terminated(text, at, fail);
    } else
      fail(
        at,
        `bad character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} '${char}'`,
      );
  }
}

/** After a field, variable or word: the end of the action, space or punctuation, as Go wants. */
function terminated(text: string, at: number, fail: (at: number, message: string) => never): void {
  const char = text[at];
  if (char === undefined || SPACE.test(char) || ".,|:)(".includes(char)) return;
  if (text.startsWith("}}", at)) return;
  fail(
    at,
    `bad character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} '${char}'`,
  );
}

/** A quoted literal at the start of `rest`: its value (a rune's as a number) and length. */
function quoted(rest: string, fail: (message: string) => never): [string, number] {
  const quote = rest[0]!;
  if (quote === "`") {
    const end = rest.indexOf("`", 1);
    if (end === -1) fail("unterminated raw quoted string");
    return [rest.slice(1, end), end + 1];
  }
  const match = (quote === '"' ? /^"(?:[^"\\\n]|\\.)*"/ : /^'(?:[^'\\\n]|\\.)*'/).exec(rest);
  if (!match)
    return fail(quote === '"' ? "unterminated quoted string" : "unterminated character constant");
  const value = match[0]
    .slice(1, -1)
    .replace(
      /\\(x[\da-fA-F]{2}|u[\da-fA-F]{4}|U[\da-fA-F]{8}|[0-7]{3}|.)/g,
      (_, escape: string) => {
        if (escape in ESCAPES) return ESCAPES[escape]!;
        if (/^[xuU]./.test(escape)) return String.fromCodePoint(parseInt(escape.slice(1), 16));
        if (/^[0-7]{3}$/.test(escape)) return String.fromCodePoint(parseInt(escape, 8));
        return fail(`invalid syntax`);
      },
    );
  if (quote === '"') return [value, match[0].length];
  if (Array.from(value).length !== 1) fail(`malformed character constant: ${match[0]}`);
  return [String(value.codePointAt(0)), match[0].length];
}
