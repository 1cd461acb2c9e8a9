/**
 * A heading's anchor as GitHub makes it, and the docs site too (docs/.vitepress/config.mts), so
 * that a page's links work on both: lower case, punctuation dropped, spaces as `-`.
 */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
