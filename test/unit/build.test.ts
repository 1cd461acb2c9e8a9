import { describe, expect, it } from "vitest";
import { lighterDependencies } from "../../build/lighter-dependencies.ts";

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
