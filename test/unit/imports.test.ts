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

/**
 * Whether every import of `target` in `file` (both relative to src/) is `import type`: the
 * dashboard (web/) takes the body types from the library entry, and nothing else of it.
 */
function importsOnlyTypes(file: string, target: string): boolean {
  const source = ts.createSourceFile(file, code(file), ts.ScriptTarget.Latest);
  return source.statements.every((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return true;
    const from = statement.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from)) return true;
    if (relative(SRC, resolve(SRC, dirname(file), from.text)) !== target) return true;
    return ts.isImportDeclaration(statement)
      ? Boolean(statement.importClause?.isTypeOnly)
      : statement.isTypeOnly;
  });
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

/**
 * The core's rooms, lowest first: the foundations at core/'s top (errors, names, flow, query,
 * json, ndjson, compare), then config/ (what the clusters are), then engine/ (talking to them), then
 * hub/ (each engine watched once: its shared event subscription and container mirror), then the
 * resources, which may use each other: containers/, objects/ (images, networks, volumes) and
 * clusters/ (what an engine says of itself: info and events); then node/ (a node answering a
 * hub's engine reads with the resources' checks, and a node's clusters in the fleet); then
 * alerts/, rules over all of them; then history/, which records and reads all of them.
 */
const ROOMS = [
  "core",
  "config",
  "engine",
  "hub",
  "resources",
  "node",
  "alerts",
  "history",
] as const;
const RESOURCES = new Set(["containers", "objects", "clusters"]);

/** The room of a file of src/, or undefined outside the core. */
function room(file: string): number | undefined {
  const parts = file.split("/");
  if (parts[0] !== "core") return undefined;
  if (parts.length === 2) return 0;
  return ROOMS.indexOf((RESOURCES.has(parts[1]!) ? "resources" : parts[1]) as never);
}

/** A core file may import its own room and those below; a new room must be named in ROOMS. */
function mayImport(from: number | undefined, to: number | undefined): boolean {
  if (from === undefined || to === undefined) return true;
  return from >= 0 && to >= 0 && to <= from;
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

  it("point down: core imports neither cli nor server nor the entry, cli and server not the entry, web/ only its types, operations only core (nothing of cli/)", () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            (file.startsWith("core/") && !target.startsWith("core/")) ||
            (file.startsWith("server/") && target.startsWith("cli/")) ||
            // The faces stand side by side: the MCP server is made of the operations, as serve is.
            (file.startsWith("mcp/") &&
              (target.startsWith("cli/") || target.startsWith("server/"))) ||
            (file.startsWith("server/") && target.startsWith("mcp/")) ||
            // The operation entries sit between: below the faces (cli, server, mcp), above core;
            // the CLI's views are the CLI's own (cli/views.ts), keyed by operation id.
            (file.startsWith("operations/") &&
              (target.startsWith("server/") ||
                target.startsWith("cli/") ||
                target.startsWith("mcp/"))) ||
            (file.startsWith("core/") && target.startsWith("operations/")) ||
            (file !== "index.ts" &&
              target === "index.ts" &&
              !(file.startsWith("web/") && importsOnlyTypes(file, target))),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("keep the core's rooms in order: foundations, config, engine, then the resources", () => {
    const across = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((target) => !mayImport(room(file), room(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(across).toEqual([]);
  });

  it("would be caught: a room importing one above it", () => {
    expect(mayImport(room("core/config/config.ts"), room("core/engine/fleet.ts"))).toBe(false);
    expect(mayImport(room("core/errors.ts"), room("core/config/endpoint.ts"))).toBe(false);
    expect(mayImport(room("core/engine/engine.ts"), room("core/containers/logs.ts"))).toBe(false);
    expect(mayImport(room("core/objects/images.ts"), room("core/containers/containers.ts"))).toBe(
      true,
    );
  });

  it("web/ imports nothing of src/ outside web/ but the entry (its types only: see above)", () => {
    const outside = [...graph].flatMap(([file, imports]) =>
      file.startsWith("web/")
        ? imports
            .filter((target) => !target.startsWith("web/") && target !== "index.ts")
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(outside).toEqual([]);
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
