// `docklens inspect`: what docker inspect prints, a JSON array of the bodies or a template a body.
import { toJsonText } from "../../core/json.ts";
import { escapeControls } from "./escape.ts";
import { FUNCTIONS } from "./formatted.ts";
import { parseTemplate } from "./template-parse.ts";
import { executeTemplate, type TemplateData } from "./template-run.ts";

/**
 * The bodies as docker inspect prints them: a JSON array indented by four spaces, `<`, `>` and `&`
 * escaped as Go's json.MarshalIndent writes them; with `format`, the template run on each body, a
 * line each. What is left of control characters (JSON leaves DEL and C1 ones, a template prints
 * values as they are) is escaped as everywhere else.
 */
export function inspectView(objects: object[], format?: string): string {
  if (format === undefined) {
    const json = toJsonText(objects, 4).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    return escapeControls(json, { keepLines: true });
  }
  const lines = objects.map((object) => {
    const template = parseTemplate(format, FUNCTIONS, { type: "map[string]interface {}" });
    return executeTemplate(template, object as TemplateData, FUNCTIONS);
  });
  return escapeControls(lines.join("\n"), { keepLines: true });
}
