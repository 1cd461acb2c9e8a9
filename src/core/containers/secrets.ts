// Secrets stay hidden (docs/http-interface.md, "Secrets"): what looks like a secret in a
// container's environment, or in its processes' command lines and environment, reads
// `<redacted>` unless the config (or `serve --show-secrets`) shows secrets.

/** Names of environment variables whose values are hidden. */
const SENSITIVE = /PASS|SECRET|TOKEN|KEY|CREDENTIAL|AUTH/i;

/**
 * Replace the value of each `NAME=value` entry whose name looks sensitive with `<redacted>`.
 * @example
 * ```ts
 * redactEnv(["API_TOKEN=abc", "PORT=80"]); // ["API_TOKEN=<redacted>", "PORT=80"]
 * ```
 */
export function redactEnv(env: string[]): string[] {
  return env.map((entry) => {
    const eq = entry.indexOf("=");
    const name = eq === -1 ? entry : entry.slice(0, eq);
    return eq !== -1 && SENSITIVE.test(name) ? `${name}=<redacted>` : entry;
  });
}

/**
 * A `NAME=value` word of a line of `ps`: its name, and its value up to the next such word or
 * the end (ps joins the environment with spaces, so a value may hold spaces of its own).
 */
const PAIR = /(^|\s)([^\s=]+)=(.*?)(?=\s+[^\s=]+=|$)/gs;

/**
 * A line of `ps` output (a command line, `ps e`'s environment after it) with the value of each
 * `NAME=value` word whose name looks sensitive replaced by `<redacted>`.
 * @example
 * ```ts
 * redactText("app DB_PASSWORD=a b PORT=80"); // "app DB_PASSWORD=<redacted> PORT=80"
 * ```
 */
export function redactText(text: string): string {
  return text.replace(PAIR, (pair: string, space: string, name: string) =>
    SENSITIVE.test(name) ? `${space}${name}=<redacted>` : pair,
  );
}
