import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SEARCH_PLACES } from "../../src/core/config/config.ts";
import { readJsonConfig } from "../../src/core/config/json-config.ts";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

/** A directory holding `files` (a name ending in "/" is a directory), to run in. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "docklens-json-"));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith("/")) await mkdir(join(root, name), { recursive: true });
    else {
      await mkdir(dirname(join(root, name)), { recursive: true });
      await writeFile(join(root, name), text);
    }
  }
  return root;
}

/** Run `read` with `dir` as the working directory, where cosmiconfig looks for its own settings. */
async function inDir<T>(dir: string, read: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await read();
  } finally {
    process.chdir(before);
  }
}

const config = JSON.stringify({ clusters: [{ name: "a", host: "/run/docker.sock", icon: "🐋" }] });

describe("readJsonConfig, the --config f.json path that spares a run cosmiconfig", () => {
  it.each<[string, Record<string, string>, string, boolean]>([
    ["a JSON object", { "f.json": config }, "f.json", true],
    ["a JSON array", { "f.json": "[1]" }, "f.json", true],
    ["JSON with spaces around it", { "f.json": `\n ${config}\n` }, "f.json", true],
    ["null, cosmiconfig's nothing found", { "f.json": "null" }, "f.json", false],
    ["a number", { "f.json": "5" }, "f.json", false],
    ["an empty file", { "f.json": "" }, "f.json", false],
    ["a file of spaces", { "f.json": " \n" }, "f.json", false],
    ["broken JSON", { "f.json": "{ clusters: " }, "f.json", false],
    ["JSON after a byte order mark", { "f.json": `\uFEFF${config}` }, "f.json", false],
    ["a $import", { "f.json": '{ "$import": "g.json" }', "g.json": config }, "f.json", false],
    ["a package.json", { "package.json": `{ "docklens": ${config} }` }, "package.json", false],
    ["YAML", { "f.yaml": config }, "f.yaml", false],
    ["a file named .json, read as YAML", { ".json": config }, ".json", false],
    ["an upper-case extension", { "f.JSON": config }, "f.JSON", false],
    ["no such file", {}, "f.json", false],
    ["a directory", { "f.json/": "" }, "f.json", false],
    [
      "cosmiconfig's own settings beside it",
      { "f.json": config, ".config/config.json": "{}" },
      "f.json",
      false,
    ],
    [
      "cosmiconfig's own package.json key beside it",
      { "f.json": config, "package.json": '{ "cosmiconfig": {} }' },
      "f.json",
      false,
    ],
    [
      "a package.json without that key beside it",
      { "f.json": config, "package.json": '{ "name": "x" }' },
      "f.json",
      true,
    ],
  ])("%s", async (_label, files, name, read) => {
    const dir = await tree(files);
    const file = join(dir, name);
    const found = await inDir(dir, () => Promise.resolve(readJsonConfig(file)));
    expect(found !== undefined).toBe(read);
    if (!found) return;
    // What it reads, cosmiconfig reads alike, from the same place.
    const { cosmiconfig } = await import("cosmiconfig");
    const loaded = await inDir(dir, () =>
      cosmiconfig("docklens", { searchPlaces: SEARCH_PLACES, searchStrategy: "global" }).load(file),
    );
    expect(found).toEqual(loaded);
  });

  it("is what loadConfig reads a --config f.json with, without loading cosmiconfig", async () => {
    const dir = await tree({ "f.json": config });
    const file = join(dir, "f.json");
    vi.resetModules();
    vi.doMock("cosmiconfig", () => {
      throw new Error("cosmiconfig was loaded");
    });
    try {
      const { loadConfig } = await import("../../src/core/config/config.ts");
      const loaded = await inDir(dir, () => loadConfig({ configPath: "f.json", env: {} }));
      expect(loaded.source).toBe(file);
      expect(loaded.clusters.map((cluster) => cluster.name)).toEqual(["a"]);
    } finally {
      vi.doUnmock("cosmiconfig");
    }
  });
});
