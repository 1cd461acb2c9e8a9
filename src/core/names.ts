import { DocklensError } from "./errors.ts";

/** Names of clusters, containers, volumes and networks (D7). */
export const NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
/** Longest name accepted; engines cap names well below this. */
const MAX_NAME_LENGTH = 255;

/** What a name names, for error messages. */
export type NameKind = "cluster" | "container" | "volume" | "network";

/**
 * Check a container, volume or network name before any engine call (D7) and return it
 * percent-encoded for an engine path. A container name may carry its leading `/` (D6).
 * Throws `INVALID_NAME` for anything else, such as `../images/json`, `web?all=1` or `%2e%2e`.
 */
export function checkName(kind: NameKind, name: string): string {
  const bare = kind === "container" && name.startsWith("/") ? name.slice(1) : name;
  if (bare.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(bare)) {
    throw new DocklensError("INVALID_NAME", `invalid ${kind} name ${JSON.stringify(name.slice(0, 80))}: expected letters, digits, '_', '.' or '-'`);
  }
  // The pattern already excludes '/', '?', '#' and '%'; encoding keeps that true if it ever widens.
  return encodeURIComponent(bare);
}
