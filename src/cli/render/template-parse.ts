// Parsing Go's text/template (text/template/parse/parse.go) as docker's --format and inspect -f
// use it: text, actions, `if`/`else if`/`else`/`range`/`with`/`end`, `break`/`continue`,
// variables (`$`, `$x :=`, `$x =`, `$i, $v :=` in range), pipelines, parentheses, literals and
// the functions given. template-lex.ts reads the words; template-run.ts runs the tree; what Go
// refuses to parse is Go's error here.
import { templateError } from "./template-error.ts";
import { lexTemplate, lineOf, type Token } from "./template-lex.ts";
import type { Command, Node, Operand, Pipeline, Template } from "./template-tree.ts";

/** The functions a template may call, by name: parsing checks the names only. */
type KnownFunctions = Readonly<Record<string, unknown>>;

const UNSUPPORTED = new Set(["define", "template", "block"]);
const STARTS_OPERAND = new Set(["field", "variable", "identifier", "dot", "string", "number"]);

/**
 * Parse `text` as Go would, with `functions` known; each field chain on the data itself must
 * start at one of `fields.names` (docker's context methods: an unknown one is an error even with
 * no rows to print); without `names`, the data is a map (docker inspect's bodies), of any field.
 */
export function parseTemplate(
  text: string,
  functions: KnownFunctions,
  fields: { names?: readonly string[]; type: string },
): Template {
  const nodes = new Parser(text, functions).parse();
  if (fields.names)
    for (const operand of fieldsOf(nodes))
      if (!fields.names.includes(operand.path[0]!))
        throw templateError(
          `:${lineOf(text, operand.at)}:${operand.at}: executing "" at <.${operand.path.join(".")}>: ` +
            `can't evaluate field ${operand.path[0]} in type ${fields.type}`,
        );
  return { nodes, text };
}

/** The fields read from the data itself: outside what `range` and `with` run on another dot. */
function* fieldsOf(nodes: Node[]): Generator<Extract<Operand, { kind: "field" }>> {
  for (const node of nodes) {
    if (node.kind === "text" || node.kind === "break" || node.kind === "continue") continue;
    yield* pipelineFields(node.pipeline);
    if (node.kind === "if") yield* fieldsOf([...node.list, ...(node.otherwise ?? [])]);
    else if (node.kind !== "action") yield* fieldsOf(node.otherwise ?? []);
  }
}

function* pipelineFields(pipeline: Pipeline): Generator<Extract<Operand, { kind: "field" }>> {
  for (const command of pipeline.commands)
    for (const operand of command.operands) {
      if (operand.kind === "field") yield operand;
      if (operand.kind === "group") yield* pipelineFields(operand.pipeline);
    }
}

/** Go's parser: a list of nodes until `{{end}}` or `{{else}}`, each action's pipeline. */
class Parser {
  private readonly tokens: Token[];
  private index = 0;
  private variables = ["$"];
  private loops = 0;

  constructor(
    private readonly text: string,
    private readonly functions: KnownFunctions,
  ) {
    this.tokens = lexTemplate(text);
  }

  parse(): Node[] {
    const [nodes, end] = this.list();
    if (end !== "eof") this.fail(`unexpected {{${end}}}`);
    return nodes;
  }

  private fail(message: string, token = this.tokens[Math.max(0, this.index - 1)]!): never {
    throw templateError(`:${lineOf(this.text, token.at)}: ${message}`);
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    return this.tokens[this.index++]!;
  }

  /** Nodes until `{{end}}`, `{{else}}` (its words left to read) or the end of the text. */
  private list(): [Node[], "end" | "else" | "eof"] {
    const nodes: Node[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === "eof") return [nodes, "eof"];
      if (token.kind === "text") {
        nodes.push({ kind: "text", text: token.value });
        continue;
      }
      const word = this.peek();
      const keyword = word.kind === "identifier" ? word.value : "";
      if (keyword === "end" || keyword === "else") {
        this.next();
        if (keyword === "end") this.close("end");
        return [nodes, keyword];
      }
      nodes.push(this.action(keyword));
    }
  }

  private close(context: string): void {
    const token = this.next();
    if (token.kind !== "close") this.fail(`unexpected ${describe(token)} in ${context}`);
  }

  private action(keyword: string): Node {
    if (keyword === "if" || keyword === "with" || keyword === "range") {
      this.next();
      return this.control(keyword);
    }
    if (keyword === "break" || keyword === "continue") {
      this.next();
      if (!this.loops) this.fail(`{{${keyword}}} outside {{range}}`);
      this.close(keyword);
      return keyword === "break" ? { kind: "break" } : { kind: "continue" };
    }
    if (UNSUPPORTED.has(keyword)) this.fail(`{{${keyword}}} is not supported by docklens`);
    return { kind: "action", pipeline: this.pipeline("command", "close") };
  }

  /** `if`, `with` or `range`: its pipeline, its list, and what `else` (or `else if`) runs. */
  private control(kind: "if" | "with" | "range"): Node {
    const scope = this.variables.length;
    const pipeline = this.pipeline(kind, "close");
    if (kind === "range") this.loops++;
    const [list, end] = this.list();
    if (kind === "range") this.loops--;
    let otherwise: Node[] | undefined;
    if (end === "eof") this.fail("unexpected EOF");
    if (end === "else") {
      const word = this.peek();
      // `{{else if x}}` (and `else with`) is an `if` of its own, ending at the same `{{end}}`.
      if (word.kind === "identifier" && (word.value === "if" || word.value === "with")) {
        this.next();
        otherwise = [this.control(word.value)];
      } else {
        this.close("else");
        const [rest, last] = this.list();
        if (last !== "end")
          this.fail(last === "eof" ? "unexpected EOF" : "expected end; found {{else}}");
        otherwise = rest;
      }
    }
    this.variables.length = scope;
    return { kind, pipeline, list, otherwise };
  }

  private pipeline(context: string, end: "close" | "rightParen"): Pipeline {
    const pipeline: Pipeline = { declare: [], assign: false, commands: [] };
    // Declarations: `$x :=`, `$x =`, and in range `$i, $v :=`.
    while (this.peek().kind === "variable") {
      const after = this.tokens[this.index + 1]!;
      if (after.kind === "declare" || after.kind === "assign") {
        this.index += 2;
        pipeline.declare.push(this.peekBack(2).value);
        pipeline.assign = after.kind === "assign";
        break;
      }
      if (after.kind !== "comma") break;
      if (context !== "range" || pipeline.declare.length)
        this.fail(`too many declarations in ${context}`);
      this.index += 2;
      pipeline.declare.push(this.peekBack(2).value);
      if (this.peek().kind !== "variable") this.fail("range can only initialize variables");
    }
    for (const name of pipeline.declare) if (pipeline.assign) this.useVariable(name);
    for (;;) {
      const token = this.peek();
      if (token.kind === end) {
        this.next();
        break;
      }
      if (!STARTS_OPERAND.has(token.kind) && token.kind !== "leftParen")
        this.fail(`unexpected ${describe(token)} in ${context}`, token);
      pipeline.commands.push(this.command());
      if (this.peek().kind === "pipe") {
        this.next();
        if (this.peek().kind === end || this.peek().kind === "pipe") this.fail("missing command");
      }
    }
    if (!pipeline.commands.length) this.fail(`missing value for ${context}`);
    pipeline.commands.slice(1).forEach((command, index) => {
      if (command.operands[0]!.kind === "literal" || command.operands[0]!.kind === "dot")
        this.fail(`non executable command in pipeline stage ${index + 2}`);
    });
    if (!pipeline.assign) this.variables.push(...pipeline.declare);
    return pipeline;
  }

  private peekBack(count: number): Token {
    return this.tokens[this.index - count]!;
  }

  private useVariable(name: string): void {
    if (!this.variables.includes(name)) this.fail(`undefined variable "${name}"`);
  }

  private command(): Command {
    const at = this.peek().at;
    const operands: Operand[] = [];
    for (;;) {
      operands.push(this.operand());
      const token = this.peek();
      if (token.kind === "close" || token.kind === "rightParen" || token.kind === "pipe") break;
      if (!token.space) this.fail(`unexpected ${describe(token)} in operand`, token);
    }
    return { operands, at, end: at + this.text.slice(at, this.peek().at).trimEnd().length };
  }

  private operand(): Operand {
    const token = this.next();
    let operand: Operand;
    switch (token.kind) {
      case "field":
        return this.chain({ kind: "field", path: [token.value.slice(1)], at: token.at }, token);
      case "variable":
        this.useVariable(token.value);
        operand = { kind: "variable", name: token.value, path: [], at: token.at };
        break;
      case "dot":
        operand = { kind: "dot", at: token.at };
        break;
      case "string":
        operand = { kind: "literal", value: token.value, at: token.at };
        break;
      case "number":
        operand = { kind: "literal", value: numberOf(token.value), at: token.at };
        break;
      case "leftParen": {
        const pipeline = this.pipeline("parenthesized pipeline", "rightParen");
        operand = { kind: "group", pipeline, path: [], at: token.at };
        break;
      }
      case "identifier":
        operand = this.word(token);
        break;
      default:
        return this.fail(`unexpected ${describe(token)} in operand`, token);
    }
    return this.chain(operand, token);
  }

  private word(token: Token): Operand {
    const { value, at } = token;
    if (value === "true" || value === "false")
      return { kind: "literal", value: value === "true", at };
    if (value === "nil") return { kind: "literal", value: null, at };
    if (!(value in this.functions)) this.fail(`function "${value}" not defined`, token);
    return { kind: "function", name: value, path: [], at };
  }

  /** Fields right after an operand (`.A.B`, `$x.A`, `(...).A`); Go places the chain at `.B`. */
  private chain(operand: Operand, first: Token): Operand {
    const path: string[] = [];
    let at = operand.at;
    while (this.peek().kind === "field" && !this.peek().space) {
      const field = this.next();
      if (!path.length) at = field.at;
      path.push(field.value.slice(1));
    }
    if (!path.length) return operand;
    if (operand.kind === "literal" || operand.kind === "dot")
      this.fail(`unexpected . after term "${first.value}"`);
    if (operand.kind === "field") return { ...operand, path: [...operand.path, ...path], at };
    return { ...operand, path, at: operand.kind === "variable" ? at : operand.at };
  }
}

/** A word as Go's parser names it in an error. */
function describe(token: Token): string {
  if (token.kind === "eof") return "EOF";
  if (token.kind === "close") return `"}}"`;
  return JSON.stringify(token.value);
}

/** A number literal's value: Go's `-0x10`, `0o17`, `1_000` and `.5` too. */
function numberOf(literal: string): number {
  const digits = literal.replace(/^[+-]/, "").replaceAll("_", "");
  return literal.startsWith("-") ? -Number(digits) : Number(digits);
}
