import { DocklensError } from "../core/errors.ts";

/** Query parameters as they arrive: one value per name. */
export type QueryInput = Record<string, string | undefined>;

/** Refuse any parameter a route does not know, so that a typo is an error, not ignored. */
export function checkQueryNames(query: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length)
    throw new DocklensError(
      "INVALID_QUERY",
      `unknown query parameter ${JSON.stringify(unknown[0])}; known: ${known.join(", ")}`,
    );
}

/** A route pattern with `:name` segments; with `rest`, the last one takes the rest of the path. */
export interface Pattern {
  path: string;
  rest?: boolean;
}

/**
 * Match the raw request path (as the client sent it, before any decoding) against route
 * patterns, segment by segment, and decode each parameter exactly once. h3 decodes the path
 * before its router runs, which would turn `web%3Fall=1` into a path and a query; matching the
 * raw path keeps `?`, `#` and `/` inside a parameter, where the name check rejects them
 * (docs/http-interface.md, "Names and image references").
 */
export function matchRoute<T extends Pattern>(
  routes: readonly T[],
  rawUrl: string,
): { route: T; params: Record<string, string> } | undefined {
  const query = rawUrl.indexOf("?");
  const segments = (query === -1 ? rawUrl : rawUrl.slice(0, query)).split("/");
  for (const route of routes) {
    const pattern = route.path.split("/");
    if (route.rest ? segments.length < pattern.length : pattern.length !== segments.length)
      continue;
    const params: Record<string, string> = {};
    const matched = pattern.every((part, index) => {
      const last = route.rest && index === pattern.length - 1;
      const segment = last ? segments.slice(index).join("/") : segments[index]!;
      if (!part.startsWith(":")) return part === segment;
      if (segment === "") return false;
      params[part.slice(1)] = last
        ? segment.split("/").map(decodeSegment).join("/")
        : decodeSegment(segment);
      return true;
    });
    if (matched) return { route, params };
  }
  return undefined;
}

/** A request's query: one value per name, and every value of the names that may repeat. */
export interface ParsedQuery {
  query: QueryInput;
  lists: Record<string, string[]>;
}

/**
 * The query string of a raw request target. The names in `repeatable` (`filter`, `cluster`)
 * collect every value in `lists`; any other name given twice is `INVALID_QUERY`.
 */
export function parseQuery(rawUrl: string, repeatable: readonly string[] = []): ParsedQuery {
  const start = rawUrl.indexOf("?");
  const query = Object.create(null) as QueryInput;
  const lists = Object.create(null) as Record<string, string[]>;
  if (start === -1) return { query, lists };
  let params: URLSearchParams;
  try {
    // A `+` is a plus (`since=2026-11-22T10:00+01:00`), not a form's space: no form posts here.
    params = new URLSearchParams(rawUrl.slice(start + 1).replaceAll("+", "%2B"));
  } catch {
    throw new DocklensError("INVALID_QUERY", "the query string could not be read");
  }
  for (const [name, value] of params) {
    if (repeatable.includes(name)) (lists[name] ??= []).push(value);
    else if (Object.hasOwn(query, name))
      throw new DocklensError(
        "INVALID_QUERY",
        `query parameter ${JSON.stringify(name.slice(0, 40))} is given more than once`,
      );
    else query[name] = value;
  }
  return { query, lists };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new DocklensError(
      "INVALID_NAME",
      `invalid percent-encoding in ${JSON.stringify(segment.slice(0, 80))}`,
    );
  }
}
