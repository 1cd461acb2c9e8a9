// Running a parsed template (template-parse.ts) on data as Go's text/template (exec.go) does:
// actions, `if`/`with`/`range` with Go's truth and map keys in order, variables, pipelines,
// fields and methods, the functions given (`and` and `or` lazily); what Go refuses at run time is
// a template error too, with Go's `executing "" at <...>`.
import { DocklensError } from "../../core/errors.ts";
import { isTrue, VARIADIC } from "./template-builtins.ts";
import { lineOf } from "./template-lex.ts";
import { goType, printed } from "./template-print.ts";
import { templateError } from "./template-error.ts";
import {
  named,
  type TemplateData,
  type TemplateFunctions,
  type TemplateValue,
  type Command,
  type Node,
  type Operand,
  type Pipeline,
  type Template,
} from "./template-tree.ts";

export { printed } from "./template-print.ts";

export type { TemplateData, TemplateFunctions, TemplateValue } from "./template-tree.ts";

/** How a template runs: `raw`, on docker inspect's JSON maps (Go's names of their types). */
export interface TemplateRunOptions {
  raw?: boolean;
}

/** An error of Go's at one place of the template: where (`at`), and what it names (`near`). */
class ExecError extends Error {
  constructor(
    message: string,
    readonly at: number,
    readonly near: string,
  ) {
    super(message);
  }
}

/** `{{break}}` or `{{continue}}`, thrown to the `range` running them. */
class LoopSignal extends Error {
  constructor(readonly kind: "break" | "continue") {
    super(kind);
  }
}

/**
 * Run a parsed template on `data`; what Go refuses at run time (a field of a string, a wrong
 * number of arguments) is a template error too.
 */
export function executeTemplate(
  template: Template,
  data: TemplateData,
  functions: TemplateFunctions,
  options: TemplateRunOptions = {},
): string {
  const run = new Run(template.text, functions, options, data);
  try {
    run.list(template.nodes, data);
  } catch (error) {
    if (error instanceof DocklensError || !(error instanceof ExecError)) throw error;
    const before = template.text.slice(0, error.at);
    const column = error.at - (before.lastIndexOf("\n") + 1);
    throw templateError(
      `:${lineOf(template.text, error.at)}:${column}: executing "" at <${error.near}>: ${error.message}`,
    );
  }
  return run.out;
}

class Run {
  out = "";
  private readonly variables: Array<[string, TemplateValue]>;

  constructor(
    private readonly text: string,
    private readonly functions: TemplateFunctions,
    private readonly options: TemplateRunOptions,
    data: TemplateData,
  ) {
    this.variables = [["$", data]];
  }

  list(nodes: Node[], dot: TemplateValue): void {
    for (const node of nodes) {
      if (node.kind === "text") this.out += node.text;
      else if (node.kind === "break" || node.kind === "continue") throw new LoopSignal(node.kind);
      else if (node.kind === "action") {
        const value = this.pipeline(node.pipeline, dot);
        if (!node.pipeline.declare.length) this.out += printed(value);
      } else this.scoped(() => this.control(node, dot));
    }
  }

  /** Runs `body` with the variables it declares dropped after it, as Go's mark and pop. */
  private scoped(body: () => void): void {
    const mark = this.variables.length;
    try {
      body();
    } finally {
      this.variables.length = mark;
    }
  }

  private control(
    node: Extract<Node, { kind: "if" | "with" | "range" }>,
    dot: TemplateValue,
  ): void {
    const value = this.pipeline(node.pipeline, dot);
    if (node.kind !== "range") {
      if (isTrue(value)) this.list(node.list, node.kind === "with" ? value : dot);
      else if (node.otherwise) this.list(node.otherwise, dot);
      return;
    }
    const entries = this.entries(value, node.pipeline);
    for (const [key, item] of entries) {
      const names = node.pipeline.declare;
      try {
        this.scoped(() => {
          if (names.length) this.set(names.at(-1)!, item, node.pipeline.assign);
          if (names.length > 1) this.set(names[0]!, key, node.pipeline.assign);
          this.list(node.list, item);
        });
      } catch (signal) {
        if (!(signal instanceof LoopSignal)) throw signal;
        if (signal.kind === "break") break;
      }
    }
    if (!entries.length && node.otherwise) this.list(node.otherwise, dot);
  }

  /** What `range` runs over: a list's items, a map's by key in order, 0 to n-1 of a number. */
  private entries(value: TemplateValue, pipeline: Pipeline): Array<[TemplateValue, TemplateValue]> {
    if (value === null) return [];
    if (Array.isArray(value)) return value.map((item, index) => [index, item]);
    if (typeof value === "number" && Number.isInteger(value))
      return Array.from({ length: Math.max(0, value) }, (_, index) => [index, index]);
    if (typeof value === "object" && !isTrue(value)) return [];
    if (typeof value === "object" && !Object.values(value).some((v) => typeof v === "function"))
      return Object.keys(value)
        .sort()
        .map((key) => [key, value[key] as TemplateValue]);
    const command = pipeline.commands.at(-1)!;
    throw new ExecError(
      `range can't iterate over ${printed(value)}`,
      command.at,
      this.source(command),
    );
  }

  private set(name: string, value: TemplateValue, assign: boolean): void {
    if (!assign) {
      this.variables.push([name, value]);
      return;
    }
    for (let index = this.variables.length - 1; index >= 0; index--)
      if (this.variables[index]![0] === name) {
        this.variables[index]![1] = value;
        return;
      }
  }

  private pipeline(pipeline: Pipeline, dot: TemplateValue): TemplateValue {
    let value: TemplateValue | undefined;
    for (const command of pipeline.commands) value = this.command(command, dot, value);
    for (const name of pipeline.declare) this.set(name, value!, pipeline.assign);
    return value!;
  }

  private source(command: Command): string {
    return this.text.slice(command.at, command.end);
  }

  private command(
    command: Command,
    dot: TemplateValue,
    final: TemplateValue | undefined,
  ): TemplateValue {
    const [first, ...rest] = command.operands as [Operand, ...Operand[]];
    if (first.kind === "function") return this.call(first, command, rest, dot, final);
    const args = () => [
      ...rest.map((operand) => this.argument(operand, dot)),
      ...(final === undefined ? [] : [final]),
    ];
    if (first.kind === "field") return this.fields(dot, first.path, first, args());
    const head = this.argument({ ...first, path: [] } as Operand, dot);
    if ("path" in first && first.path.length) return this.fields(head, first.path, first, args());
    if (rest.length || final !== undefined)
      throw new ExecError(
        `can't give argument to non-function ${named(first)}`,
        command.at,
        this.source(command),
      );
    return head;
  }

  private call(
    operand: Extract<Operand, { kind: "function" }>,
    command: Command,
    rest: Operand[],
    dot: TemplateValue,
    final: TemplateValue | undefined,
  ): TemplateValue {
    const { name } = operand;
    const fn = this.functions[name]!;
    const count = rest.length + (final === undefined ? 0 : 1);
    const least = VARIADIC[name];
    const at = (message: string) => new ExecError(message, operand.at, name);
    const want = least === undefined ? String(fn.length) : `at least ${least}`;
    if (least === undefined ? count !== fn.length : count < least)
      throw at(`wrong number of args for ${name}: want ${want} got ${count}`);
    let result: TemplateValue;
    if (name === "and" || name === "or") {
      // Go stops at the first argument that decides, and runs none after it.
      const operands = [...rest, ...(final === undefined ? [] : [undefined])];
      result = null;
      for (const item of operands) {
        result = item === undefined ? final! : this.argument(item, dot);
        if (isTrue(result) === (name === "or")) break;
      }
    } else {
      const args = [
        ...rest.map((item) => this.argument(item, dot)),
        ...(final === undefined ? [] : [final]),
      ];
      try {
        result = fn(...args);
      } catch (error) {
        if (error instanceof DocklensError || error instanceof ExecError) throw error;
        throw new ExecError(
          `error calling ${name}: ${(error as Error).message}`,
          command.at,
          this.source(command),
        );
      }
    }
    return operand.path.length ? this.fields(result, operand.path, operand, []) : result;
  }

  /** An operand as an argument: a field's or function's value, a variable's, a literal. */
  private argument(operand: Operand, dot: TemplateValue): TemplateValue {
    let value: TemplateValue;
    switch (operand.kind) {
      case "dot":
        return dot;
      case "literal":
        return operand.value;
      case "field":
        return this.fields(dot, operand.path, operand, []);
      case "variable":
        value = this.variables.findLast(([name]) => name === operand.name)![1];
        break;
      case "group":
        value = this.pipeline(operand.pipeline, dot);
        break;
      case "function": {
        const command = {
          operands: [{ ...operand, path: [] }],
          at: operand.at,
          end: operand.at + operand.name.length,
        };
        value = this.call({ ...operand, path: [] }, command, [], dot, undefined);
        break;
      }
    }
    return operand.path.length ? this.fields(value, operand.path, operand, []) : value;
  }

  /** `.A.B` on `value`: a map's key or a row's field, a method given `args` at the end. */
  private fields(
    value: TemplateValue,
    path: string[],
    operand: Operand,
    args: TemplateValue[],
  ): TemplateValue {
    const fail = (message: string) => new ExecError(message, operand.at, named(operand));
    let holder: TemplateValue = value;
    path.forEach((name, index) => {
      const last = index === path.length - 1;
      if (holder === null) throw fail(`nil pointer evaluating interface {}.${name}`);
      // Go names a map's value by the map's element type: interface {} in docker inspect's.
      const type = index && this.options.raw ? "interface {}" : goType(holder, this.options.raw);
      if (typeof holder !== "object" || Array.isArray(holder))
        throw fail(`can't evaluate field ${name} in type ${type}`);
      const found = holder[name];
      if (typeof found === "function") {
        const given = last ? args : [];
        if (given.length !== found.length)
          throw fail(`wrong number of args for ${name}: want ${found.length} got ${given.length}`);
        holder = found(...given);
        return;
      }
      // docker runs inspect's templates on maps with missingkey=error.
      if (found === undefined) throw fail(`map has no entry for key "${name}"`);
      if (last && args.length) throw fail(`${name} is not a method but has arguments`);
      holder = found;
    });
    return holder;
  }
}
