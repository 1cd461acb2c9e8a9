import { describe, expect, it } from "vitest";
import { lighterDependencies, withoutBuiltinNamespaces } from "../../build/lighter-dependencies.ts";

type Hook = (...args: unknown[]) => unknown;
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

  it("leave other files alone", () => {
    const plugin = lighterDependencies();
    expect(hook(plugin, "resolveId")("tar-fs", "/x/node_modules/other/index.js")).toBeNull();
    expect(hook(plugin, "transform")("code", "/x/node_modules/other/index.js")).toBeNull();
  });
});

describe("imports of Node built-ins in the bundle", () => {
  it.each([
    [
      'import{readFileSync as t}from"node:fs";',
      'const{readFileSync:t}=globalThis.process.getBuiltinModule("node:fs");',
    ],
    [
      'import{dirname as a,join as o}from"node:path";x()',
      'const{dirname:a,join:o}=globalThis.process.getBuiltinModule("node:path");x()',
    ],
    [
      'import{once}from"node:events";',
      'const{once}=globalThis.process.getBuiltinModule("node:events");',
    ],
    [
      'import process from "node:process";',
      'const process=globalThis.process.getBuiltinModule("node:process");',
    ],
    [
      'import * as fs$1 from "node:fs";',
      'const fs$1=globalThis.process.getBuiltinModule("node:fs");',
    ],
    ['import{x}from"./chunk.mjs";', 'import{x}from"./chunk.mjs";'],
    ['const a = import("node:fs");', 'const a = import("node:fs");'],
  ])("%s", (code, expected) => {
    expect(withoutBuiltinNamespaces(code)).toBe(expected);
  });

  it("give the same module the import gave", async () => {
    const code = withoutBuiltinNamespaces('import{join as j}from"node:path";export default j;');
    const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      default: (...parts: string[]) => string;
    };
    expect(module.default("a", "b")).toBe("a/b");
  });
});
