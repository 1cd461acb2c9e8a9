import { DocklensError } from "./errors.ts";

/**
 * A pattern's source without its `^` and `$`, to join into another pattern (`^(?:a|b)$`): the
 * documents describe what a parameter takes with the very patterns that check it.
 */
export function unanchored(pattern: RegExp): string {
  return pattern.source.replace(/^\^|\$$/g, "");
}

/**
 * Names of clusters, containers, volumes and networks
 * (docs/http-interface.md, "Names and image references").
 */
export const NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
/** A cluster name or a glob of names (`prod-*`), as tokens' and alert rules' clusters take them. */
export const CLUSTER_GLOB_PATTERN = /^[a-zA-Z0-9_.*?-]+$/;
/** Longest name accepted; engines cap names well below this. */
export const MAX_NAME_LENGTH = 255;

/** What a name names, for error messages. */
export type NameKind = "cluster" | "container" | "volume" | "network";

/**
 * Check a container, volume or network name before any engine call and return it
 * percent-encoded for an engine path (docs/http-interface.md, "Names and image references").
 * A container name may carry its leading `/`.
 * Throws `INVALID_NAME` for anything else, such as `../images/json`, `web?all=1` or `%2e%2e`.
 */
export function checkName(kind: NameKind, name: string): string {
  const bare = kind === "container" && name.startsWith("/") ? name.slice(1) : name;
  if (bare.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(bare)) {
    throw new DocklensError(
      "INVALID_NAME",
      `invalid ${kind} name ${JSON.stringify(name.slice(0, 80))}: ` +
        (bare.length > MAX_NAME_LENGTH
          ? `${bare.length} characters, longer than the ${MAX_NAME_LENGTH} a name may have`
          : "expected letters, digits, '_', '.' or '-'"),
    );
  }
  // The pattern already excludes '/', '?', '#' and '%'; encoding keeps that true if it ever widens.
  return encodeURIComponent(bare);
}

// The engine's reference grammar (distribution/reference): [domain[:port]/]path[:tag][@digest].
const COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const DOMAIN =
  "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::\\d{1,5})?";
const TAG = "[\\w][\\w.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
const REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`,
);
const IMAGE_ID = /^(?:sha256:)?[a-f0-9]{1,64}$/;
/** What {@link checkImageReference} accepts, as one pattern (for documents that describe it). */
export const IMAGE_REFERENCE_PATTERN = new RegExp(`${IMAGE_ID.source}|${REFERENCE.source}`);

/**
 * Check an image reference before any engine call: `busybox`, `local/busybox:1`,
 * `registry:5000/team/app@sha256:…`, or an id (`sha256:…` or a hex prefix). Returns it
 * percent-encoded for the engine path, `/` and `:` included. Throws `INVALID_NAME`.
 */
export function checkImageReference(reference: string): string {
  if (
    reference.length > MAX_NAME_LENGTH ||
    !(IMAGE_ID.test(reference) || REFERENCE.test(reference))
  ) {
    throw new DocklensError(
      "INVALID_NAME",
      `invalid image reference ${JSON.stringify(reference.slice(0, 80))}: ` +
        "expected [registry/]name[:tag][@digest] or an image id",
    );
  }
  return encodeURIComponent(reference);
}
