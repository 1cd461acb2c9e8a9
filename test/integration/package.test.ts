import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { dockerIds, engines } from "./helpers.ts";

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");

describe("the npm package", () => {
  it("runs from its tarball with npx in an empty folder", async () => {
    const dir = await mkdtemp(join(engines.tmp, "pack-"));
    await exec("npm", ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: ROOT });
    const tarball = (await readdir(dir)).find((file) => file.endsWith(".tgz"))!;
    const { stdout } = await exec("npx", ["--yes", `./${tarball}`, "clusters", "--json"], {
      cwd: dir,
      env: {
        ...process.env,
        DOCKER_HOST: engines.hostA,
        DOCKLENS_CONFIG: "",
        npm_config_update_notifier: "false",
      },
    });
    const [local] = JSON.parse(stdout).clusters;
    expect(local).toMatchObject({
      id: 1,
      name: "local",
      host: engines.hostA.replace("unix://", ""),
    });
    expect(local.docker.Containers).toBe((await dockerIds(engines.hostA, "ps", "-aq")).length);
    // npx installs the package's dependencies: 18 s on a quiet machine, past 120 s on a loaded one.
  }, 300_000);
});

/** The text of a chunk of dist/ and of every chunk it imports statically, transitively. */
async function loadedAtOnce(file: string, seen = new Set<string>()): Promise<string> {
  if (seen.has(file)) return "";
  seen.add(file);
  const code = await readFile(join(ROOT, "dist", file), "utf8");
  const imports = [...code.matchAll(/\bimport\s*(?:[\w${},*\s]*from\s*)?["']\.\/([^"']+)["']/g)];
  const chunks = await Promise.all(imports.map(([, chunk]) => loadedAtOnce(chunk!, seen)));
  return [code, ...chunks].join("\n");
}

describe("what the CLI loads at once (dist/cli.mjs and its static imports)", () => {
  it("builds no zod schema and loads no node:crypto: those come with a config file, an input flag or the alerts", async () => {
    const code = await loadedAtOnce("cli.mjs");
    expect(code).toContain("docklens"); // read the right files
    expect(code).not.toContain("$ZodType");
    expect(code).not.toContain("expected a duration like 30s"); // the alerts' schema
    expect(code).not.toContain("@nats-io"); // nodes over NATS load it when a config names them
    expect(code).not.toMatch(/=globalThis\.process\.getBuiltinModule\(`node:crypto`\)/);
  });
});
