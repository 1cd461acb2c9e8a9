import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import setup from "../setup/temp-dir.ts";

/**
 * The run's temp dir (test/setup/temp-dir.ts), made inside a temp dir of this test's own: the run
 * gets a dir of its own, which what it spawns inherits; whatever the run leaves there is seen,
 * whoever named it (Podman's `api_load.tar*` was not `docklens-*`), and what other processes put
 * in the machine's temp dir meanwhile is not.
 */
let outer: string;
const saved = { tmp: process.env.TMPDIR, exitCode: process.exitCode };

beforeEach(async () => {
  outer = await mkdtemp(join(tmpdir(), "docklens-temp-check-"));
  process.env.TMPDIR = outer;
  delete (globalThis as { __docklensTempDir?: unknown }).__docklensTempDir;
});
afterEach(async () => {
  // Assigning undefined would set the text "undefined": where TMPDIR was unset, unset it again.
  if (saved.tmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved.tmp;
  // The check fails the run by its exit code: what it does here is not the run's.
  process.exitCode = saved.exitCode;
  await rm(outer, { recursive: true, force: true });
});

describe("the run's temp dir", () => {
  it("is a dir of the run's own, named in TMPDIR for everything the run starts", async () => {
    const teardown = await setup();
    const run = tmpdir();
    expect(dirname(run)).toBe(outer);
    expect(await readdir(run)).toEqual([]);
    const { stdout } = await promisify(execFile)(process.execPath, [
      "-p",
      "require('node:os').tmpdir()",
    ]);
    expect(stdout.trim()).toBe(run);
    await teardown();
    expect(process.env.TMPDIR).toBe(outer);
    expect(await readdir(outer)).toEqual([]);
  });

  it("fails the run on any entry left in it, whatever its name, and removes it all the same", async () => {
    const teardown = await setup();
    await writeFile(join(tmpdir(), "api_load.tar4019326981"), "");
    await mkdir(join(tmpdir(), "docklens-test-x"));
    await expect(teardown()).rejects.toThrow(
      "the tests left 2 entries in their temp dir: api_load.tar4019326981, docklens-test-x",
    );
    expect(process.exitCode).toBe(1);
    expect(await readdir(outer)).toEqual([]);
  });

  it("is not failed by what other processes put in the machine's temp dir meanwhile", async () => {
    const teardown = await setup();
    await writeFile(join(outer, "someone-elses"), "");
    await expect(teardown()).resolves.toBeUndefined();
    expect(await readdir(outer)).toEqual(["someone-elses"]);
  });

  it("is one dir for the projects that share it, checked after the last of them", async () => {
    const integration = await setup();
    const run = tmpdir();
    await writeFile(join(run, "made-by-an-engine"), "");
    const root = await setup();
    expect(tmpdir()).toBe(run);
    await root();
    await expect(integration()).rejects.toThrow("made-by-an-engine");
  });

  it("counts no compile cache of Node's (the CLI's, on Node 22 and later), and removes it", async () => {
    const teardown = await setup();
    await mkdir(join(tmpdir(), "node-compile-cache"));
    await expect(teardown()).resolves.toBeUndefined();
    expect(await readdir(outer)).toEqual([]);
  });

  it("passes a run that leaves nothing", async () => {
    const teardown = await setup();
    await writeFile(join(tmpdir(), "gone"), "");
    await rm(join(tmpdir(), "gone"));
    await expect(teardown()).resolves.toBeUndefined();
  });
});
