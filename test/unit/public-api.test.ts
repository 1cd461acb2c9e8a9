// The library entry as a user sees it: every operation it exports shows its use in an
// `@example`, and every example type-checks against the entry as it is, so that examples cannot
// go stale.
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ENTRY = resolve(import.meta.dirname, "../../src/index.ts");
const EXAMPLES = resolve(import.meta.dirname, "../../src/examples.check.ts");

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  strict: true,
  noUncheckedIndexedAccess: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Each value the entry exports, with the code of its `@example`s. */
function exportedValues(): Array<{ name: string; examples: string[] }> {
  const program = ts.createProgram([ENTRY], options);
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  return checker.getExportsOfModule(entry).flatMap((symbol) => {
    const target = checker.getAliasedSymbol(symbol);
    if (!(target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class))) return [];
    const examples = target
      .getJsDocTags(checker)
      .filter((tag) => tag.name === "example")
      .map((tag) => ts.displayPartsToString(tag.text).replace(/^```ts\n|\n?```$/g, ""));
    return [{ name: symbol.name, examples }];
  });
}

describe("the library entry (src/index.ts)", () => {
  const values = exportedValues();

  it("exports the operations the routes serve, and no test hooks", () => {
    const names = values.map((value) => value.name);
    for (const name of ["listAllContainers", "listImages", "listAllImages", "listDrift"])
      expect(names).toContain(name);
    for (const name of ["streamEvents", "describeConfig", "inspectCluster", "listClusters"])
      expect(names).toContain(name);
    expect(names).not.toContain("countEngineStreams");
  });

  it("gives every function and class it exports an @example", () => {
    expect(values.filter((value) => !value.examples.length).map((value) => value.name)).toEqual([]);
  });

  it("has examples that type-check against it", () => {
    // Each example in a function of its own, with the names examples take as given.
    const code = [
      `import { ${values.map((value) => value.name).join(", ")} } from "./index.ts";`,
      `import type { DocklensConfigInput, EngineStats, Fleet } from "./index.ts";`,
      "declare const fleet: Fleet;",
      "declare const raw: EngineStats;",
      ...values.flatMap((value, i) =>
        value.examples.map(
          (example, j) => `export async function example${i}_${j}() {\n${example}\n}`,
        ),
      ),
    ].join("\n");
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (file) => (resolve(file) === EXAMPLES ? code : readFile(file));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => resolve(file) === EXAMPLES || fileExists(file);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language) =>
      resolve(file) === EXAMPLES
        ? ts.createSourceFile(file, code, language)
        : getSourceFile(file, language);
    const program = ts.createProgram([EXAMPLES], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(EXAMPLES))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(problems).toEqual([]);
    // A whole program's type check: seconds on a busy machine, as published-types' is.
  }, 30_000);
});
