import { DocklensError } from "../core/errors.ts";

/** A route pattern with `:name` segments, matched against a request path. */
export interface Pattern {
  path: string;
}

/**
 * Match the raw request path (as the client sent it, before any decoding) against route
 * patterns, segment by segment, and decode each parameter exactly once. h3 decodes the path
 * before its router runs, which would turn `web%3Fall=1` into a path and a query; matching the
 * raw path keeps `?`, `#` and `/` inside a parameter, where the name check rejects them (D7).
 */
export function matchRoute<T extends Pattern>(routes: readonly T[], rawUrl: string): { route: T; params: Record<string, string> } | undefined {
  const query = rawUrl.indexOf("?");
  const segments = (query === -1 ? rawUrl : rawUrl.slice(0, query)).split("/");
  for (const route of routes) {
    const pattern = route.path.split("/");
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matched = pattern.every((part, index) => {
      const segment = segments[index]!;
      if (!part.startsWith(":")) return part === segment;
      if (segment === "") return false;
      params[part.slice(1)] = decodeSegment(segment);
      return true;
    });
    if (matched) return { route, params };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new DocklensError("INVALID_NAME", `invalid percent-encoding in ${JSON.stringify(segment.slice(0, 80))}`);
  }
}
