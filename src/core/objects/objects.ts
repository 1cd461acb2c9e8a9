import { callEngine, expectBody } from "../engine/engine.ts";
import type { ErrorCode } from "../errors.ts";
import { checkImageReference, checkName } from "../names.ts";
import { resolveCluster, type CoreOptions, type ItemRef } from "../engine/fleet.ts";

/** How each kind of engine object is named, where the engine shows it, and how it is reported missing. */
const KINDS = {
  image: {
    check: checkImageReference,
    path: (name: string) => `/images/${name}/json`,
    missing: "IMAGE_NOT_FOUND",
  },
  volume: {
    check: (name: string) => checkName("volume", name),
    path: (name: string) => `/volumes/${name}`,
    missing: "VOLUME_NOT_FOUND",
  },
  network: {
    check: (name: string) => checkName("network", name),
    path: (name: string) => `/networks/${name}`,
    missing: "NETWORK_NOT_FOUND",
  },
} satisfies Record<
  string,
  { check(name: string): string; path(name: string): string; missing: ErrorCode }
>;

/**
 * The engine's inspect body of one image, volume or network: the name checked and
 * percent-encoded first (docs/http-interface.md, "Names and image references"), a 404 reported
 * as `IMAGE_NOT_FOUND` and the like, identical reads in flight shared. The body may be shared
 * with other callers: never change it.
 */
export async function inspectObject(
  kind: keyof typeof KINDS,
  input: ItemRef,
  options: CoreOptions,
): Promise<unknown> {
  const { check, path, missing } = KINDS[kind];
  const cluster = resolveCluster(input.cluster, options);
  const name = check(input.name);
  // Through the modem: dockerode's image and network inspect drop the abort signal.
  const body = await callEngine(cluster, (engine, signal) => engine.get(path(name), signal), {
    ...options,
    read: { kind, name },
    statuses: {
      404: {
        code: missing,
        message: `${kind} ${JSON.stringify(input.name)} not found in cluster "${cluster.name}"`,
      },
    },
  });
  return expectBody(body, "object", cluster);
}
