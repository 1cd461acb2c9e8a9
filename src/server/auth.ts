import { createHash, timingSafeEqual } from "node:crypto";
import {
  clusterGlob,
  type ClusterConfig,
  type ScopedToken,
} from "../core/config/cluster-config.ts";
import { DocklensError } from "../core/errors.ts";

/** Who a request is: the name of its token, and the clusters it may see (all when absent). */
export interface Access {
  token: string;
  sees?: (cluster: ClusterConfig) => boolean;
}

/** The tokens `serve` takes, as digests; `undefined` when it takes none (no token wanted). */
export type Authorizer = ((header: string | undefined) => Access | undefined) | undefined;

/** The name the request log gives the token that sees everything, unless told another. */
export const FULL_TOKEN = "--token";

/**
 * Check bearer tokens: `token` sees every cluster (the log names it `name`, `--token` unless
 * told: `docklens serve` says `DOCKLENS_TOKEN` for one from there); each scoped token only the
 * clusters its globs match. Tokens are compared as SHA-256 digests in constant time, every one
 * of them on every request, so neither a token, its length nor which one matched leaks through
 * timing. A scoped token given by `env` is read from `env` now: a variable that is not set is
 * `INVALID_CONFIG`.
 */
export function createAuthorizer(
  token: string | undefined,
  scoped: readonly ScopedToken[],
  env: NodeJS.ProcessEnv = process.env,
  name: string = FULL_TOKEN,
): Authorizer {
  const known: Array<{ digest: Buffer; access: Access }> = [];
  if (token) known.push({ digest: digest(token), access: { token: name } });
  for (const entry of scoped) {
    const value = entry.env ? env[entry.env] : undefined;
    if (entry.env && !value)
      throw new DocklensError(
        "INVALID_CONFIG",
        `token ${JSON.stringify(entry.name)}: the environment variable ${entry.env} is not set`,
      );
    const globs = entry.clusters.map(clusterGlob);
    known.push({
      digest: value ? digest(value) : Buffer.from(entry.sha256!, "hex"),
      access: {
        token: entry.name,
        sees: (cluster) => globs.some((pattern) => pattern.test(cluster.name)),
      },
    });
  }
  if (!known.length) return undefined;
  return (header) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
    const presented = digest(match?.[1] ?? "");
    let found: Access | undefined;
    for (const { digest: expected, access } of known)
      if (timingSafeEqual(presented, expected) && match) found ??= access;
    return found;
  };
}

/** SHA-256 of a token, as `docklens token hash` prints it (hex) and the comparison uses it (bytes). */
export function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
