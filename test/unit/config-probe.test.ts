import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SEARCH_PLACES } from "../../src/core/config/config.ts";
import { mayFindConfig } from "../../src/core/config/config-probe.ts";

describe("mayFindConfig, the probe that spares a run cosmiconfig when there is nothing to find", () => {
  // A tree per case: home/work/app is where the search starts, home where it stops, and xdg the
  // global config root. What cosmiconfig finds in it, the probe must never miss.
  // A text starting with "->" makes a symbolic link to the rest.
  const roots: string[] = [];
  afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));
  async function tree(files: Record<string, string>) {
    const root = await mkdtemp(join(tmpdir(), "docklens-probe-"));
    roots.push(root);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, name)), { recursive: true });
      await (text.startsWith("->")
        ? symlink(text.slice(2), join(root, name))
        : writeFile(join(root, name), text));
    }
    await mkdir(join(root, "home/work/app"), { recursive: true });
    return {
      cwd: join(root, "home/work/app"),
      options: {
        metaDir: join(root, "home/work/app"),
        stopDir: join(root, "home"),
        globalDir: join(root, "xdg/docklens"),
      },
      xdg: join(root, "xdg"),
    };
  }

  it.each<[string, Record<string, string>, boolean]>([
    ["nothing anywhere", {}, false],
    ...SEARCH_PLACES.filter((place) => place !== "package.json").map(
      (place): [string, Record<string, string>, boolean] => [
        `${place} where the search starts`,
        { [`home/work/app/${place}`]: "clusters: []" },
        true,
      ],
    ),
    [".docklensrc.json in a parent", { "home/work/.docklensrc.json": "{}" }, true],
    [".docklensrc.json in the home directory", { "home/.docklensrc.json": "{}" }, true],
    [".docklensrc.json above the home directory", { ".docklensrc.json": "{}" }, false],
    [
      "package.json with a docklens key",
      { "home/work/app/package.json": '{ "docklens": { "clusters": [] } }' },
      true,
    ],
    [
      "package.json that only depends on docklens",
      { "home/work/app/package.json": '{ "dependencies": { "docklens": "1" } }' },
      false,
    ],
    ["package.json that cannot be parsed", { "home/work/package.json": "{" }, true],
    [
      "package.json holding null, on which cosmiconfig fails",
      { "home/work/package.json": "null" },
      true,
    ],
    ["package.json holding a string", { "home/work/app/package.json": '"docklens"' }, false],
    [
      ".docklensrc.yaml, a link to itself (ELOOP)",
      { "home/work/app/.docklensrc.yaml": "->.docklensrc.yaml" },
      true,
    ],
    [
      ".docklensrc.yaml, a link to nothing",
      { "home/work/app/.docklensrc.yaml": "->nothing.yaml" },
      false,
    ],
    ["the global config.yaml", { "xdg/docklens/config.yaml": "clusters: []" }, true],
    ["the global extensionless config", { "xdg/docklens/config": "clusters: []" }, true],
    ["cosmiconfig's own .config/config.json", { "home/work/app/.config/config.json": "{}" }, true],
    [
      "cosmiconfig's own package.json key",
      { "home/work/app/package.json": '{ "cosmiconfig": {} }' },
      true,
    ],
  ])("%s", async (_label, files, expected) => {
    const { cwd, options, xdg } = await tree(files);
    const probe = mayFindConfig(cwd, SEARCH_PLACES, "docklens", options);
    expect(probe).toBe(expected);
    // cosmiconfig, from the same place (its own settings come from the process's directory).
    vi.stubEnv("XDG_CONFIG_HOME", xdg);
    const { cosmiconfig } = await import("cosmiconfig");
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const found = await Promise.resolve()
        .then(() =>
          cosmiconfig("docklens", {
            searchPlaces: SEARCH_PLACES,
            searchStrategy: "global",
            stopDir: options.stopDir,
          }).search(cwd),
        )
        .catch(() => ({ filepath: "unreadable" }));
      if (found) expect(probe).toBe(true);
    } finally {
      process.chdir(before);
    }
  });
});
