// The one error of a Go template, as docker prints it: template-lex.ts, template-parse.ts and
// template-run.ts throw it, a usage error (exit 2).
import { DocklensError } from "../../core/errors.ts";

/** The error docker prints for a template it cannot parse or run, a usage error (exit 2). */
export function templateError(message: string): DocklensError {
  return new DocklensError("INVALID_QUERY", `template parsing error: template: ${message}`);
}
