import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referencePages } from "../../scripts/reference-pages.ts";

/**
 * The docs site's CLI and route reference are made from the operation table: the checked-in
 * pages must be what the generator makes now. `npm run docs:reference` writes them again.
 */
const root = join(import.meta.dirname, "../..");

describe("the generated reference pages", () => {
  it("are what scripts/reference-pages.ts makes of the operation table now", async () => {
    const pages = await referencePages();
    if (process.env.DOCKLENS_WRITE_REFERENCE)
      for (const [file, text] of Object.entries(pages)) await writeFile(join(root, file), text);
    for (const [file, text] of Object.entries(pages)) {
      const checkedIn = await readFile(join(root, file), "utf8").catch(() => "");
      expect(checkedIn, `${file} is out of date: npm run docs:reference`).toBe(text);
    }
  });

  it("document every command and every route", async () => {
    const pages = await referencePages();
    const { createProgram } = await import("../../src/cli/main.ts");
    const cli = pages["docs/reference/cli.md"]!;
    for (const command of createProgram().commands) {
      expect(cli).toContain(`## docklens ${command.name()}\n`);
      for (const sub of command.commands)
        expect(cli).toContain(`## docklens ${command.name()} ${sub.name()}\n`);
    }
    const { API_ROUTES } = await import("../../src/server/routes.ts");
    for (const route of API_ROUTES)
      expect(pages["docs/reference/routes.md"]).toContain(`## GET ${route.path}\n`);
  });
});
