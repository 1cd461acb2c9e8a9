// The layout's rules, checked over src/: imports point one way. cli and server sit above core,
// and no file imports one that imports it back, however long the way round (type-only imports
// and lazy `import()`s count too: they tie the files together as much). The dashboard's page
// (web/) stands apart: it talks to the server over HTTP and takes only the core's types, from
// the entry.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** The code of a file: a Vue component's `<script>` blocks, or the whole of a `.ts` file. */
const code = (file: string) => {
  const text = readFileSync(join(SRC, file), "utf8");
  if (!file.endsWith(".vue")) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
};

/** Every file of src/ and the files of src/ it imports (package.json aside, `.ts` or not). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) =>
    /\.(ts|vue|css)$/.test(file),
  );
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(code(file), true, true);
      const local = importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith(".") && !name.endsWith("/package.json"))
        .map((name) => relative(SRC, resolve(SRC, dirname(file), name)));
      return [file, [...new Set(local)]];
    }),
  );
}

/** The strongly connected components of more than one file (Tarjan), or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let top: string;
    do component.push((top = stack.pop()!));
    while (top !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("imports in src/", () => {
  const graph = importGraph();

  it("resolve to files that exist", () => {
    const missing = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it("never come back round: no file imports one that imports it, directly or not", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("point down: core imports neither cli nor server nor the entry, cli and server not the entry", () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            (file.startsWith("core/") && !target.startsWith("core/")) ||
            (file.startsWith("server/") && target.startsWith("cli/")) ||
            (file !== "index.ts" && !file.startsWith("web/") && target === "index.ts"),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("web/ imports nothing of src/ outside web/ but the entry, and from it only types", () => {
    const outside = [...graph].flatMap(([file, imports]) =>
      file.startsWith("web/")
        ? imports
            .filter((target) => !target.startsWith("web/") && target !== "index.ts")
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(outside).toEqual([]);
    const values = [...graph.keys()]
      .filter((file) => file.startsWith("web/"))
      .flatMap((file) =>
        [
          ...code(file).matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"\.\.\/index\.ts"/gm),
        ].map((match) => `${file}: ${match[0]}`),
      );
    expect(values).toEqual([]);
  });

  it("would be caught: the check finds a cycle through three files", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});
