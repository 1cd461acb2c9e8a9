// The tree of a parsed Go template (text/template/parse/node.go, in short): what
// template-parse.ts makes and template-run.ts runs, and the values it runs on.

/** One operand of a command; `path` is a field chain after it (`$x.A`, `(.B).C`). */
export type Operand =
  | { kind: "field"; path: string[]; at: number }
  | { kind: "dot"; at: number }
  | { kind: "variable"; name: string; path: string[]; at: number }
  | { kind: "literal"; value: string | number | boolean | null; at: number }
  | { kind: "function"; name: string; path: string[]; at: number }
  | { kind: "group"; pipeline: Pipeline; path: string[]; at: number };
/** A function, field or value with its arguments, one stage of a pipeline. */
export interface Command {
  operands: Operand[];
  /** Its first and past-last byte in the template, for Go's `at <...>` in errors. */
  at: number;
  end: number;
}
/** Commands joined by `|`, with the variables it declares (`$x :=`) or assigns (`$x =`). */
export interface Pipeline {
  declare: string[];
  assign: boolean;
  commands: Command[];
}
/** A node of the tree: text, an action printed, a control structure, break or continue. */
export type Node =
  | { kind: "text"; text: string }
  | { kind: "action"; pipeline: Pipeline }
  | { kind: "if" | "with" | "range"; pipeline: Pipeline; list: Node[]; otherwise?: Node[] }
  | { kind: "break" }
  | { kind: "continue" };

/** A parsed template: run it on data with template-run.ts's `executeTemplate`. */
export interface Template {
  nodes: Node[];
  /** Its source, for the line and column of an error. */
  text: string;
}

/** An operand as Go's parse tree prints it in an error (`.A.B`, `$x.A`, `"text"`). */
export function named(operand: Operand): string {
  const path = "path" in operand ? operand.path.map((name) => `.${name}`).join("") : "";
  switch (operand.kind) {
    case "field":
      return path;
    case "variable":
      return operand.name + path;
    case "function":
      return operand.name + path;
    case "group":
      return `(...)${path}`;
    case "dot":
      return ".";
    case "literal":
      return typeof operand.value === "string"
        ? JSON.stringify(operand.value)
        : String(operand.value);
  }
}

/** A value of a template: what a field, a function or a literal gives. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | TemplateData;

/** The data a template runs on: fields, and methods taking arguments (`.Label "k"`). */
export interface TemplateData {
  [field: string]: TemplateValue | ((...args: TemplateValue[]) => TemplateValue) | undefined;
}

/** Functions of the rows (docker's basicFunctions, Go's predefined ones). */
export type TemplateFunctions = Record<string, (...args: TemplateValue[]) => TemplateValue>;
