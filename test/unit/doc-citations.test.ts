import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { slugOf } from "../../scripts/slug.ts";

/**
 * Every page and heading a comment or a page names exists. A comment cites a page by its path
 * from the repository's root (docs/guide/nodes.md), and a section by its heading's text in double
 * quotes after the path and a comma (an older form without the quotes, and the README's own form,
 * the word README and a quoted heading, are read too); Markdown links name a page and an anchor,
 * which must be a heading's anchor there (made as the docs site makes it).
 */
const ROOT = join(import.meta.dirname, "../..");
const ROOTS = ["src", "test", "bench", "build", "scripts", "examples", "docs", ".ci"];
const FILES = [
  "README.md",
  "CONTRIBUTING.md",
  "Dockerfile",
  "eslint.config.js",
  "vitest.config.ts",
];
const TEXT = /\.(ts|mts|mjs|js|vue|sh|md|ya?ml|conf|service)$|^\.ci\/run$/;
const SKIP = /(^|\/)(node_modules|dist|cache|fixtures)(\/|$)/;

/** The files that may cite, from the root. */
async function citingFiles(): Promise<string[]> {
  const found = await Promise.all(
    ROOTS.map(async (root) =>
      (await readdir(join(ROOT, root), { recursive: true })).map((entry) => join(root, entry)),
    ),
  );
  return [...FILES, ...found.flat().filter((file) => TEXT.test(file) && !SKIP.test(file))];
}

const headingCache = new Map<string, Promise<string[] | undefined>>();
/** The headings of a Markdown file (outside code blocks), or undefined when there is none. */
function headingsOf(file: string): Promise<string[] | undefined> {
  if (!headingCache.has(file))
    headingCache.set(
      file,
      readFile(join(ROOT, file), "utf8").then(
        (text) => {
          let fenced = false;
          return text.split("\n").flatMap((line) => {
            if (/^\s*```/.test(line)) fenced = !fenced;
            const match = fenced ? null : /^#{1,6} (.+?)\s*$/.exec(line);
            return match ? [match[1]!] : [];
          });
        },
        () => undefined,
      ),
    );
  return headingCache.get(file)!;
}

/** A comment's lines joined: line breaks and comment markers become one space. */
const joined = (text: string) =>
  text.replace(/[ \t]*\n[ \t]*(?:\/\/+|\*(?!\/)|#+(?= ))?[ \t]*/g, " ");

interface Citation {
  from: string;
  file: string;
  heading?: string;
  anchor?: string;
}

/** What `from` cites: headings by text, anchors of Markdown links, pages linked. */
function citationsIn(from: string, text: string): Citation[] {
  const flat = joined(text);
  const citations: Citation[] = [];
  for (const [file] of flat.matchAll(
    /(?<![\w./-])(?:docs\/[\w./-]+\.md|README\.md|CONTRIBUTING\.md)/g,
  ))
    citations.push({ from, file });
  for (const [, file, heading] of flat.matchAll(/([\w./-]+\.md),? "([^"]+)"/g))
    citations.push({ from, file: file!, heading: heading! });
  for (const [, file, heading] of flat.matchAll(/\(([\w./-]+\.md), ([A-Z][\w .:/-]*?)\)/g))
    citations.push({ from, file: file!, heading: heading! });
  for (const [, heading] of flat.matchAll(/\bREADME(?:'s|,)? ["']([^"']+)["']/g))
    citations.push({ from, file: "README.md", heading: heading! });
  for (const [, heading] of flat.matchAll(/\(README, ([A-Z][\w .-]*)\)/g))
    citations.push({ from, file: "README.md", heading: heading! });
  if (from.endsWith(".md"))
    for (const [, target = "", anchor] of text.matchAll(/\]\(([^)#\s]*?\.md)?(?:#([\w-]+))?\)/g)) {
      if (!target && !anchor) continue;
      const file = target ? normalize(join(dirname(from), target)) : from;
      citations.push({ from, file, ...(anchor ? { anchor } : {}) });
    }
  return citations;
}

describe("citations of the docs", () => {
  it("name headings and pages that exist", async () => {
    const problems: string[] = [];
    let count = 0;
    for (const from of await citingFiles()) {
      if ((await stat(join(ROOT, from))).isDirectory()) continue;
      for (const citation of citationsIn(from, await readFile(join(ROOT, from), "utf8"))) {
        count++;
        const headings = await headingsOf(citation.file);
        const where = `${from} cites ${relative(".", citation.file)}`;
        if (!headings) problems.push(`${where}, which does not exist`);
        else if (citation.heading && !headings.includes(citation.heading))
          problems.push(`${where}, "${citation.heading}": no such heading`);
        else if (citation.anchor && !headings.some((each) => slugOf(each) === citation.anchor))
          problems.push(`${where}#${citation.anchor}: no such heading`);
      }
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });
});
