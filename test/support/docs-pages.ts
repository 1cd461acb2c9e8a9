import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";

/** The repository's root. */
export const ROOT = join(import.meta.dirname, "../..");

/**
 * The user documentation, as `{ file, text }` (file from the root): the README, then every page
 * of the docs site (docs/, its build and cache left out), in a stable order.
 */
export async function docsPages(): Promise<Array<{ file: string; text: string }>> {
  const entries = await readdir(join(ROOT, "docs"), { recursive: true });
  const files = [
    "README.md",
    ...entries
      .filter((entry) => entry.endsWith(".md") && !entry.startsWith(".vitepress"))
      .map((entry) => join("docs", entry))
      .sort(),
  ];
  return Promise.all(
    files.map(async (file) => ({
      file: relative(ROOT, join(ROOT, file)),
      text: await readFile(join(ROOT, file), "utf8"),
    })),
  );
}
