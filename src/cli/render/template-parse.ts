// Parsing the part of Go's text/template that docker's --format is used with: text, actions of
// field chains (`.A.B`), method calls with arguments (`.Label "k"`), string and number literals,
// parentheses, pipelines (`|`) and function names. Anything else (if, range, variables) is a
// template parsing error, as Go would give for what it cannot parse, never text printed as it
// came. template-run.ts runs what this parses.
import { DocklensError } from "../../core/errors.ts";

/** What a command of an action is made of. */
export type Operand =
  | { kind: "field"; path: string[]; at: number }
  | { kind: "dot" }
  | { kind: "literal"; value: string | number }
  | { kind: "function"; name: string }
  | { kind: "group"; pipeline: Command[] };
/** A function or field with its arguments, one step of a pipeline. */
export type Command = Operand[];
type Node = string | { pipeline: Command[]; source: string; at: number };

/** A parsed template: run it on data with template-run.ts's `executeTemplate`. */
export interface Template {
  nodes: Node[];
}

/** The functions a template may call, by name: parsing checks the names only. */
type KnownFunctions = Readonly<Record<string, unknown>>;

const KEYWORDS = new Set(["if", "else", "end", "range", "with", "define", "template", "block"]);
const KEYWORDS_TOO = new Set(["break", "continue", "nil", "true", "false"]);

/** The error docker prints for a template it cannot parse or run, a usage error (exit 2). */
export function templateError(message: string): DocklensError {
  return new DocklensError("INVALID_QUERY", `template parsing error: template: ${message}`);
}

/**
 * Parse `text` as Go would, with `functions` known; each field chain must start at one of
 * `fields` (docker's context methods: an unknown one is an error even with no rows to print);
 * without `names`, the data is a map (docker inspect's bodies), of any field.
 */
export function parseTemplate(
  text: string,
  functions: KnownFunctions,
  fields: { names?: readonly string[]; type: string },
): Template {
  const nodes: Node[] = [];
  let position = 0;
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  while (position < text.length) {
    const open = text.indexOf("{{", position);
    if (open === -1) {
      nodes.push(text.slice(position));
      break;
    }
    let before = text.slice(position, open);
    let start = open + 2;
    // `{{- ` trims the space before, ` -}}` the space after, as in Go.
    if (/^- /.test(text.slice(start)) || /^-[\t\n\r]/.test(text.slice(start))) {
      before = before.trimEnd();
      start += 1;
    }
    if (before) nodes.push(before);
    const close = text.indexOf("}}", start);
    if (close === -1) throw templateError(`:${lineAt(open)}: unclosed action`);
    let end = close;
    let after = close + 2;
    if (/[ \t\n\r]-$/.test(text.slice(start, close))) end = close - 1;
    const source = text.slice(start, end);
    const parser = new ActionParser(source, lineAt(open), functions);
    const pipeline = parser.pipeline();
    parser.expectEnd();
    for (const operand of fieldsOf(pipeline))
      if (fields.names && !fields.names.includes(operand.path[0]!))
        throw templateError(
          `:${lineAt(open)}:${open + 2 + operand.at}: executing "" at <.${operand.path.join(".")}>: ` +
            `can't evaluate field ${operand.path[0]} in type ${fields.type}`,
        );
    nodes.push({ pipeline, source, at: open });
    if (end !== close) after = skipSpace(text, after);
    position = after;
  }
  return { nodes };
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

function* fieldsOf(pipeline: Command[]): Generator<Extract<Operand, { kind: "field" }>> {
  for (const command of pipeline)
    for (const operand of command) {
      if (operand.kind === "field") yield operand;
      if (operand.kind === "group") yield* fieldsOf(operand.pipeline);
    }
}

/** The words of one action, read into a pipeline of commands. */
class ActionParser {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly line: number,
    private readonly functions: KnownFunctions,
  ) {}

  private fail(message: string): never {
    throw templateError(`:${this.line}: ${message}`);
  }

  private space(): void {
    while (this.at < this.source.length && /\s/.test(this.source[this.at]!)) this.at++;
  }

  expectEnd(): void {
    this.space();
    if (this.at < this.source.length)
      this.fail(`unexpected "${this.source.slice(this.at, this.at + 1)}" in command`);
  }

  pipeline(): Command[] {
    const commands: Command[] = [];
    for (;;) {
      const command = this.command();
      if (!command.length)
        this.fail(commands.length ? "missing command" : "missing value for command");
      commands.push(command);
      this.space();
      if (this.source[this.at] !== "|") return commands;
      this.at++;
    }
  }

  private command(): Command {
    const operands: Operand[] = [];
    for (;;) {
      this.space();
      const char = this.source[this.at];
      if (char === undefined || char === "|" || char === ")") return operands;
      operands.push(this.operand());
    }
  }

  private operand(): Operand {
    const rest = this.source.slice(this.at);
    const start = this.at;
    if (rest[0] === "(") {
      this.at++;
      const pipeline = this.pipeline();
      this.space();
      if (this.source[this.at] !== ")") this.fail("unclosed left paren");
      this.at++;
      return { kind: "group", pipeline };
    }
    const field = /^(?:\.[A-Za-z_]\w*)+/.exec(rest);
    if (field) {
      this.at += field[0].length;
      return { kind: "field", path: field[0].slice(1).split("."), at: start };
    }
    if (/^\.(?![\w.])/.test(rest)) {
      this.at++;
      return { kind: "dot" };
    }
    const string = /^"(?:[^"\\\n]|\\.)*"|^`[^`]*`/.exec(rest);
    if (string) {
      this.at += string[0].length;
      return { kind: "literal", value: unquote(string[0], (message) => this.fail(message)) };
    }
    const number = /^[-+]?\d+(?:\.\d+)?(?![\w.])/.exec(rest);
    if (number) {
      this.at += number[0].length;
      return { kind: "literal", value: Number(number[0]) };
    }
    const word = /^[A-Za-z_]\w*/.exec(rest);
    if (word) {
      this.at += word[0].length;
      if (KEYWORDS.has(word[0]) || KEYWORDS_TOO.has(word[0]))
        this.fail(`"${word[0]}" is not supported by docklens' --format`);
      if (!(word[0] in this.functions)) this.fail(`function "${word[0]}" not defined`);
      return { kind: "function", name: word[0] };
    }
    if (rest[0] === "$") this.fail("variables are not supported by docklens' --format");
    return this.fail(`unexpected "${rest[0]}" in operand`);
  }
}

/** A Go string literal's value: `"a\tb"` with Go's escapes, or a raw `` `a\tb` ``. */
function unquote(literal: string, fail: (message: string) => never): string {
  if (literal.startsWith("`")) return literal.slice(1, -1);
  const simple: Record<string, string> = {
    n: "\n",
    t: "\t",
    r: "\r",
    a: "\x07",
    b: "\b",
    f: "\f",
    v: "\v",
    "\\": "\\",
    '"': '"',
  };
  return literal
    .slice(1, -1)
    .replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, escape: string) => {
      if (escape in simple) return simple[escape]!;
      if (/^[xuU]/.test(escape) && escape.length > 1)
        return String.fromCodePoint(parseInt(escape.slice(1), 16));
      return fail(`invalid syntax: \\${escape}`);
    });
}
