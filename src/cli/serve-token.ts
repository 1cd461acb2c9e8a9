// The token serve requires, and where it came from, for the request log; and `docklens token
// hash`, the digest of a token for the config.
import { readSecretFileSync } from "../core/config/file-errors.ts";
import { DocklensError } from "../core/errors.ts";

/** The flags of serve that give its token. */
export interface TokenFlags {
  token?: string;
  /** A file holding the token (trimmed): kept out of the process list, where `--token` shows. */
  tokenFile?: string;
}

/**
 * The token serve requires: `--token`, the text of `--token-file` (trimmed; unreadable or empty
 * is a usage error, in the words of every key file), else `$DOCKLENS_TOKEN`.
 */
export function serveToken(options: TokenFlags): string | undefined {
  if (options.tokenFile === undefined)
    return options.token ?? (process.env.DOCKLENS_TOKEN || undefined);
  if (options.token !== undefined)
    throw new DocklensError("INVALID_CONFIG", "--token-file: give it or --token, not both");
  let text: string;
  try {
    text = readSecretFileSync(options.tokenFile).trim();
  } catch (error) {
    throw new DocklensError(
      "INVALID_CONFIG",
      `--token-file: cannot read the file (${(error as Error).message})`,
    );
  }
  if (!text) throw new DocklensError("INVALID_CONFIG", "--token-file: the file is empty");
  return text;
}

/** Where the token came from, as the request log names it: a flag, or the environment. */
export function tokenSource(options: TokenFlags): string {
  if (options.tokenFile !== undefined) return "--token-file";
  return options.token === undefined ? "DOCKLENS_TOKEN" : "--token";
}

/**
 * `docklens token hash`: the SHA-256 of the token on stdin, for a scoped token's `sha256` in the
 * config. One line's end is the shell's, not the token's. Anything else on stdin is a usage
 * error, reported through `usage` (commander's, exit 2).
 */
export async function hashToken(usage: (message: string) => never): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const token = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
  if (!token || /\s/.test(token))
    usage(
      'error: expected one token on stdin, with no spaces (printf %s "$TOKEN" | docklens token hash)',
    );
  const { digest } = await import("../server/auth.ts");
  process.stdout.write(`${digest(token).toString("hex")}\n`);
}
