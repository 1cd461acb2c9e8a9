import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  asciiOnly,
  lighterDependencies,
  withEagerCommonJs,
  withoutBuiltinNamespaces,
} from "../../build/lighter-dependencies.ts";

type Hook = (...args: unknown[]) => unknown;
/** The default export of a module of this code, as Node imports it. */
const defaultOf = async <T>(code: string): Promise<T> =>
  ((await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { default: T }).default;
const hook = (plugin: object, name: string): Hook => {
  const value = (plugin as Record<string, Hook | { handler: Hook }>)[name]!;
  return typeof value === "function" ? value : value.handler;
};

describe("the build's replacements in dependencies", () => {
  it("fail the build when a dependency no longer requires what one replaces", () => {
    const plugin = lighterDependencies();
    hook(plugin, "buildStart")();
    // Only one of them applies: the others name files or requests that are gone.
    hook(plugin, "resolveId")("tar-fs", "/x/node_modules/dockerode/lib/util.js");
    expect(() => hook(plugin, "buildEnd")()).toThrow(
      "dockerode/lib/docker.js no longer requires ./session: update build/lighter-dependencies.ts",
    );
  });

  it("fail the build when docker-modem's code changed under an edit", () => {
    const plugin = lighterDependencies();
    expect(() =>
      hook(plugin, "transform")("var x = 1;", "/x/node_modules/docker-modem/lib/modem.js"),
    ).toThrow(/docker-modem's modem\.js no longer says: debug\('Sending/);
  });

  it("leave other files alone, and are asked of no other", () => {
    const plugin = lighterDependencies() as unknown as Record<string, { filter: { id: RegExp } }>;
    expect(hook(plugin, "resolveId")("tar-fs", "/x/node_modules/other/index.js")).toBeNull();
    expect(plugin.resolveId!.filter.id.test("lodash")).toBe(false);
    expect(plugin.resolveId!.filter.id.test("tar-fs")).toBe(true);
    expect(plugin.transform!.filter.id.test("/x/node_modules/other/index.js")).toBe(false);
    expect(plugin.transform!.filter.id.test("/x/node_modules/docker-modem/lib/modem.js")).toBe(
      true,
    );
  });
});

describe("imports of Node built-ins in the bundle", () => {
  const get = (id: string) => `globalThis.process.getBuiltinModule("${id}");`;
  it.each([
    ['import{readFileSync as t}from"node:fs";', `const {readFileSync:t}=${get("node:fs")}`],
    [
      'import{dirname as a,join as o}from"node:path";x()',
      `const {dirname:a,join:o}=${get("node:path")}x()`,
    ],
    ['import { once } from "node:events";', `const {once}=${get("node:events")}`],
    ['import process from "node:process";', `const process=${get("node:process")}`],
    ['import { default as fs } from "node:fs";', `const fs=${get("node:fs")}`],
    [
      'import fs, { statSync as s } from "node:fs";',
      `const fs=${get("node:fs")}const {statSync:s}=${get("node:fs")}`,
    ],
    ['import { a, /* why */ b } from "node:fs";', `const {a,b}=${get("node:fs")}`],
    // A namespace keeps its `default`; code elsewhere in a line, or in a string, is no import.
    ['import * as fs$1 from "node:fs";', 'import * as fs$1 from "node:fs";'],
    ['import{x}from"./chunk.mjs";', 'import{x}from"./chunk.mjs";'],
    ['const a = import("node:fs");', 'const a = import("node:fs");'],
    ['const s = `import {a} from "node:fs"`;', 'const s = `import {a} from "node:fs"`;'],
  ])("%s", (code, expected) => {
    expect(withoutBuiltinNamespaces(code)).toBe(expected);
  });

  it("fail the build on a form they cannot read", () => {
    expect(() => withoutBuiltinNamespaces('import fs, * as all from "node:fs";')).toThrow(
      "a form of import the build cannot read",
    );
  });

  it("give the same module the import gave", async () => {
    const code = withoutBuiltinNamespaces('import{join as j}from"node:path";export default j;');
    const join = await defaultOf<(...parts: string[]) => string>(code);
    expect(join("a", "b")).toBe("a/b");
  });
});

describe("CommonJS modules bundled in", () => {
  it.each([
    [
      "var a = __commonJSMin(((exports, module) => {",
      "var a = __commonJSMin((function (exports, module) {",
    ],
    ["var b = __commonJSMin(((exports) => {", "var b = __commonJSMin((function (exports) {"],
    ["var c = __commonJSMin((() => {", "var c = __commonJSMin((function () {"],
  ])("%s: a function V8 compiles with the chunk", (code, expected) => {
    expect(withEagerCommonJs(code)).toBe(expected);
  });

  it("fail the build on a wrapper they cannot read", () => {
    expect(() => withEagerCommonJs("var a = __commonJSMin(((e, t) => {")).toThrow(
      "a CommonJS wrapper the build cannot read",
    );
  });

  it("export what they exported", async () => {
    const code = withEagerCommonJs(`const __commonJSMin = (cb, mod) => () =>
      (mod || (cb((mod = { exports: {} }).exports, mod), cb = null), mod.exports);
    var require_a = __commonJSMin(((exports, module) => {
      module.exports = { self: this, args: arguments.length };
    }));
    export default require_a();`);
    expect(await defaultOf(code)).toEqual({ self: undefined, args: 2 });
  });
});

describe("chunks written in ASCII", () => {
  it.each([
    ["a string", 'export default "\u{1F433} \u2026";'],
    ["a template", "export default `\u{1F433}${1}\u2026`;"],
    ["a pattern", 'export default "x\u2026\u{1F433}".replace(/\u2026\u{1F433}/, "");'],
    ["a pattern with the u flag", 'export default "\u{1F433}a".replace(/^\u{1F433}/u, "");'],
    ["a class of characters", 'export default "\u00e9".replace(/[\u00c0-\u00ff]/, "e");'],
    ["a name", "const caf\u00e9 = 1; export default caf\u00e9;"],
  ])("%s means what it meant", async (_, code) => {
    // The code as the minifier writes it, its characters as themselves (the escapes here are
    // this test file's).
    expect(code).toMatch(/[^\0-\x7f]/);
    const ascii = asciiOnly(code);
    expect(ascii).toMatch(/^[\0-\x7f]*$/);
    expect(await defaultOf(ascii)).toEqual(await defaultOf(code));
  });

  it("fail the build on a character escaped with a backslash", () => {
    expect(() => asciiOnly("const a = /\\\u2026/;")).toThrow(
      "a character escaped with a backslash",
    );
  });
});

describe("what an install of the package runs", () => {
  const root = join(import.meta.dirname, "../..");
  const readJson = <T>(name: string) => JSON.parse(readFileSync(join(root, name), "utf8")) as T;
  const lock = readJson<{
    packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
  }>("package-lock.json");

  it("no dependency it installs has an install script (ssh2's native parts stay out, bundled without them)", () => {
    const scripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path && !entry.dev && entry.hasInstallScript)
      .map(([path]) => path);
    expect(scripts).toEqual([]);
  });

  it("the project's own install runs none of its dev dependencies' install scripts but node-pty's: each other is denied in allowScripts", () => {
    const { allowScripts } = readJson<{ allowScripts?: Record<string, boolean> }>("package.json");
    // npm 11.19+ runs a script allowScripts does not name, with a warning; a new one needs a decision.
    const names = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    // node-pty builds its native module (node-gyp, g++): the TUI's tests run it in a real
    // pseudo-terminal, and it ships no Linux build of its own.
    const ALLOWED = new Set(["node-pty"]);
    expect(Object.fromEntries(names.map((name) => [name, allowScripts?.[name]]))).toEqual(
      Object.fromEntries(names.map((name) => [name, ALLOWED.has(name)])),
    );
  });
});
