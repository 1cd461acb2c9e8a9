// The cap on open streams per client (docs/http-interface.md, "Streams"): one client cannot hold
// every engine stream of a cluster and starve the others.
import type { ServerResponse } from "node:http";
import { DocklensError } from "../core/errors.ts";
import type { ApiRoute } from "./api-route.ts";

/** Streams one client may hold open unless told: a quarter of a cluster's engine stream pool. */
export const MAX_STREAMS = 64;

/** Whether a request of `route` with its decoded `input` streams (its `ndjson` says when). */
export function streams(
  route: ApiRoute,
  input: Record<string, unknown>,
  params: Record<string, string> = {},
): boolean {
  if (route.streams) return route.streams(params, input);
  const when = route.ndjson?.when;
  return when === "always" || (when !== undefined && input[when] === true);
}

/**
 * Count each client's open streams, at most `max`: `open(client, response)` counts one more for
 * `client` (a token's name, or an address) until `response` closes, or throws
 * `TOO_MANY_STREAMS` when it holds `max` already.
 */
export function createStreamCap(max: number): (client: string, response: ServerResponse) => void {
  const open = new Map<string, number>();
  return (client, response) => {
    const count = open.get(client) ?? 0;
    if (count >= max)
      throw new DocklensError(
        "TOO_MANY_STREAMS",
        `this client has ${max} streams open, the most one client may: end one, then ask again`,
      );
    open.set(client, count + 1);
    response.once("close", () => {
      const left = open.get(client)! - 1;
      if (left) open.set(client, left);
      else open.delete(client);
    });
  };
}
