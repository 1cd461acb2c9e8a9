// A receiver's target, and how `docklens config` may show it: apart from the alerts' zod schema,
// so that the core a CLI run loads builds none (test/integration/package.test.ts).

/** A receiver's target as written: a URL, or where to read it. */
export type ReceiverTarget = string | { env: string } | { file: string };

/**
 * Where a receiver sends, as it may be shown (`docklens config`): a URL with its path, query and
 * credentials hidden (a Slack, Discord or ntfy URL is its own secret), or the variable or file
 * that holds it, never what they hold.
 * @example
 * ```ts
 * describeTarget("https://hooks.slack.com/services/T0/B0/x"); // "https://hooks.slack.com/<redacted>"
 * describeTarget({ env: "HOOK_URL" }); // "$HOOK_URL"
 * ```
 */
export function describeTarget(target: ReceiverTarget): string {
  if (typeof target !== "string") return "env" in target ? `$${target.env}` : `file ${target.file}`;
  try {
    const url = new URL(target);
    const hidden = (url.pathname !== "/" && url.pathname !== "") || url.search || url.hash;
    return `${url.protocol}//${url.host}${hidden ? "/<redacted>" : ""}`;
  } catch {
    return "<redacted>";
  }
}
