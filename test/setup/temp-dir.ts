import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What Node itself keeps in the temp dir, and no leak: the CLI's compile cache
 * (bin/docklens.mjs: `module.enableCompileCache()` on Node 22 and later).
 */
const NODE_OWN = new Set(["node-compile-cache"]);

/** The run's own temp dir, and the TMPDIR it was given before. */
interface RunTempDir {
  users: number;
  dir?: string;
  outer?: string | undefined;
}

/**
 * What the projects that list this file share (each loads its own copy of it): vitest runs each
 * project's global setup (the root's last) and tears them down in the reverse order, the root's
 * first. The first setup makes the run's temp dir, and the last teardown checks it, so that the
 * check brackets every engine.
 */
function shared(): RunTempDir {
  return ((globalThis as { __docklensTempDir?: RunTempDir }).__docklensTempDir ??= { users: 0 });
}

/**
 * Global setup of the whole run (and first of the integration project's, before its engines
 * start): give the run a temp dir of its own, before anything else runs, and name it in TMPDIR,
 * which every test worker, engine, CLI and browser the run starts inherits. After every test and
 * every engine is done, also after a failed test, fail the run if anything is left in it, whoever
 * named it (Podman's image import left `api_load.tar*`) but Node's own compile cache, then
 * remove it. What other processes on the machine put in the machine's temp dir meanwhile is none
 * of the run's.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const run = shared();
  run.users += 1;
  if (!run.dir) {
    run.outer = process.env.TMPDIR;
    run.dir = await mkdtemp(join(tmpdir(), "docklens-run-"));
    process.env.TMPDIR = run.dir;
  }
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    const dir = run.dir!;
    run.dir = undefined;
    // Assigning undefined would set the text "undefined": where TMPDIR was unset, unset it again.
    if (run.outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.outer;
    const left = (await readdir(dir)).filter((name) => !NODE_OWN.has(name)).sort();
    await rm(dir, { recursive: true, force: true });
    if (left.length) {
      // vitest reports an error thrown here but still exits 0: fail the run by hand.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in their temp dir: ${left.join(", ")}`,
      );
    }
  };
}
