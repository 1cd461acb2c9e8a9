import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";

/** What the tests make in the temp dir is named `docklens-*`: see that a whole run leaves none of it. */
async function leftovers(): Promise<Set<string>> {
  return new Set((await readdir(tmpdir())).filter((name) => name.startsWith("docklens-")));
}

/**
 * Global setup of the whole run: note the `docklens-*` entries of the temp dir before, and fail
 * the run if any new one is there after every test (and every engine) is done, also after a
 * failed test. Tests hold private keys and certificates there.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const before = await leftovers();
  return async () => {
    const left = [...(await leftovers())].filter((name) => !before.has(name));
    if (left.length) {
      // vitest reports an error thrown here but still exits 0: fail the run by hand.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in ${tmpdir()}: ${left.join(", ")}`,
      );
    }
  };
}
