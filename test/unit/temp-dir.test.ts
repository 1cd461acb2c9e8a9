import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TestProject } from "vitest/node";
import setup from "../setup/temp-dir.ts";

/**
 * The run's temp dir check (test/setup/temp-dir.ts), on a temp dir of its own: whatever a run
 * leaves is seen, whoever named it (Podman's `api_load.tar*` was not `docklens-*`), and only
 * what was there before and vitest's own working directories are not.
 */
let dir: string;
const saved = { tmp: process.env.TMPDIR, exitCode: process.exitCode };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-temp-check-"));
  process.env.TMPDIR = dir;
  delete (globalThis as { __docklensTempDir?: unknown }).__docklensTempDir;
});
afterEach(async () => {
  process.env.TMPDIR = saved.tmp;
  // The check fails the run by its exit code: what it does here is not the run's.
  process.exitCode = saved.exitCode;
  await rm(dir, { recursive: true, force: true });
});

/** A project as vitest hands it to a global setup, with the working directory it keeps in the temp dir. */
function project(workDir: string): TestProject {
  return {
    vitest: { getRootProject: () => ({ tmpDir: join(dir, workDir) }), projects: [] },
  } as unknown as TestProject;
}

describe("the temp dir check", () => {
  it("fails the run on any new entry, whatever its name", async () => {
    await writeFile(join(dir, "there-before"), "");
    const teardown = await setup(project("vitest-work"));
    await writeFile(join(dir, "api_load.tar4019326981"), "");
    await writeFile(join(dir, "docklens-test-x"), "");
    await mkdir(join(dir, "vitest-work"));
    await expect(teardown()).rejects.toThrow(
      `the tests left 2 entries in ${dir}: api_load.tar4019326981, docklens-test-x`,
    );
    expect(process.exitCode).toBe(1);
  });

  it("checks once, after the last of the projects that share it", async () => {
    const integration = await setup(project("vitest-work"));
    await writeFile(join(dir, "made-by-an-engine"), "");
    const root = await setup(project("vitest-work"));
    await root();
    await expect(integration()).rejects.toThrow("made-by-an-engine");
  });

  it("passes a run that leaves nothing", async () => {
    const teardown = await setup(project("vitest-work"));
    await writeFile(join(dir, "gone"), "");
    await rm(join(dir, "gone"));
    await expect(teardown()).resolves.toBeUndefined();
  });
});
