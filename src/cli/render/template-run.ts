// Running a parsed template (template-parse.ts) on data as Go's text/template does: fields,
// methods with arguments, the functions docker adds (cli/templates/templates.go, in formatted.ts)
// with Go's print and println, pipelines; what Go refuses at run time is a template error too. And
// printing a value as fmt's %v does.
import { DocklensError } from "../../core/errors.ts";
import { templateError, type Command, type Operand, type Template } from "./template-parse.ts";

/** A value of a template: what a field, a function or a literal gives. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | TemplateData;

/** The data a template runs on: fields, and methods taking arguments (`.Label "k"`). */
export interface TemplateData {
  [field: string]: TemplateValue | ((...args: TemplateValue[]) => TemplateValue) | undefined;
}

/** Functions of the rows (docker's basicFunctions, Go's print and println). */
export type TemplateFunctions = Record<string, (...args: TemplateValue[]) => TemplateValue>;

/**
 * Run a parsed template on `data`; what Go refuses at run time (a field of a string, a wrong
 * number of arguments) is a template error too.
 */
export function executeTemplate(
  template: Template,
  data: TemplateData,
  functions: TemplateFunctions,
): string {
  let out = "";
  for (const node of template.nodes) {
    if (typeof node === "string") {
      out += node;
      continue;
    }
    try {
      out += printed(runPipeline(node.pipeline, data, functions));
    } catch (error) {
      if (error instanceof DocklensError) throw error;
      const offset = (error as { offset?: number }).offset ?? 0;
      throw templateError(
        `:1:${node.at + 2 + offset}: executing "" at <${node.source.trim()}>: ${(error as Error).message}`,
      );
    }
  }
  return out;
}

function runPipeline(
  pipeline: Command[],
  data: TemplateData,
  functions: TemplateFunctions,
): TemplateValue {
  let last: TemplateValue | undefined;
  for (const command of pipeline) {
    const [head, ...rest] = command as [Operand, ...Operand[]];
    const args = rest.map((operand) => evaluate(operand, data, functions, []));
    if (last !== undefined) args.push(last);
    last = evaluate(head, data, functions, args);
  }
  return last ?? null;
}

function evaluate(
  operand: Operand,
  data: TemplateData,
  functions: TemplateFunctions,
  args: TemplateValue[],
): TemplateValue {
  const noArgs = (what: string) => {
    if (args.length) throw new Error(`can't give argument to non-function ${what}`);
  };
  switch (operand.kind) {
    case "dot":
      noArgs(".");
      return data;
    case "literal":
      noArgs(JSON.stringify(operand.value));
      return operand.value;
    case "group":
      noArgs("(...)");
      return runPipeline(operand.pipeline, data, functions);
    case "function":
      return functions[operand.name]!(...args);
    case "field": {
      let value: unknown = data;
      operand.path.forEach((name, index) => {
        const holder = value;
        if (holder === null || typeof holder !== "object" || Array.isArray(holder))
          throw new Error(`can't evaluate field ${name} in type ${goType(holder)}`);
        // Only a map (docker inspect's bodies: any field parses) can lack a key; docker runs
        // those templates with missingkey=error.
        if (!(name in holder)) {
          // Go names where the chain failed: the key's offset in the action.
          const offset = operand.at + operand.path.slice(0, index).join(".").length + index;
          throw Object.assign(new Error(`map has no entry for key "${name}"`), { offset });
        }
        value = (holder as TemplateData)[name];
        const last = index === operand.path.length - 1;
        if (typeof value === "function") {
          const method = value as (...a: TemplateValue[]) => TemplateValue;
          const given = last ? args : [];
          if (given.length !== method.length)
            throw new Error(
              `wrong number of args for ${name}: want ${method.length} got ${given.length}`,
            );
          value = method(...given);
        } else if (last) noArgs(`.${name}`);
      });
      return (value ?? null) as TemplateValue;
    }
  }
}

function goType(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "int";
  if (Array.isArray(value)) return "[]string";
  return "interface {}";
}

/** A value as text/template prints it (fmt's %v): `[a b]` for a list, `<nil>` for nothing. */
export function printed(value: TemplateValue): string {
  if (value === null) return "<nil>";
  if (Array.isArray(value)) return `[${value.map(printed).join(" ")}]`;
  if (typeof value === "object") return `map[${Object.keys(value).sort().join(" ")}]`;
  return String(value);
}
