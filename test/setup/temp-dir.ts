import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename } from "node:path";
import type { TestProject } from "vitest/node";

/** Every entry of the temp dir, whoever made it: a leak is often not named as docklens names things. */
async function entries(): Promise<Set<string>> {
  return new Set(await readdir(tmpdir()));
}

/**
 * What the projects that list this file share (each loads its own copy of it): vitest runs each
 * project's global setup (the root's last) and tears them down in the reverse order, the root's
 * first. The first setup notes the temp dir, and the last teardown checks it, so that the check
 * brackets every engine.
 */
function shared(): { users: number; before?: Set<string> } {
  return ((
    globalThis as { __docklensTempDir?: { users: number; before?: Set<string> } }
  ).__docklensTempDir ??= { users: 0 });
}

/**
 * Global setup of the whole run (and first of the integration project's, before its engines
 * start): note the entries of the temp dir before anything runs, and fail the run if any new one
 * is there after every test and every engine is done, also after a failed test. Tests hold
 * private keys and certificates there, and the engines they start write there too (Podman's
 * image import did). Run with a TMPDIR of its own, as `npm test` is meant to be, so that only the
 * run's own leftovers can appear.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = shared();
  run.users += 1;
  run.before ??= await entries();
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    const before = run.before!;
    // Vitest's own working directories, which it removes after the last teardown.
    const { vitest } = project;
    const own = new Set(
      [vitest.getRootProject(), ...vitest.projects].map((each) => basename(each.tmpDir)),
    );
    const left = [...(await entries())]
      .filter((name) => !before.has(name) && !own.has(name))
      .sort();
    if (left.length) {
      // vitest reports an error thrown here but still exits 0: fail the run by hand.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in ${tmpdir()}: ${left.join(", ")}`,
      );
    }
  };
}
