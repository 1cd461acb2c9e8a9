// The query parameters and error lists routes share (routes.ts, selection-routes.ts).
import type { ErrorCode } from "../core/errors.ts";
import { FILTER_KEYS, filterPattern, type FilterKind } from "../core/engine/filters.ts";
import { NAME_PATTERN } from "../core/names.ts";
import { BOOLEAN_VALUES, DATE_TIME, DURATION, UNIX_TIME } from "../core/query.ts";
import type { QueryParam, RouteContext } from "./api-route.ts";
import { parseFilters } from "../core/engine/filters.ts";

/** `filter`, repeatable, with docker's keys for `kind`. */
export const filter = (kind: FilterKind): QueryParam => ({
  description:
    `docker's filters for ${kind}, key=value, repeatable ` +
    `(keys: ${Object.keys(FILTER_KEYS[kind]).join(", ")})`,
  schema: { type: "array", items: { type: "string", pattern: filterPattern(kind) } },
  repeatable: true,
});
/** `cluster`, repeatable: the clusters an across-cluster route asks (all when absent). */
export const clusters: QueryParam = {
  description: "A cluster to ask, by name or id, repeatable; every cluster when absent",
  schema: {
    type: "array",
    items: {
      type: "string",
      pattern: `^(?:\\d{1,15}|${NAME_PATTERN.source.slice(1, -1)})$`,
      maxLength: 255,
    },
  },
  repeatable: true,
};
/** The list-route context as list options: the filters of `kind` and the clusters asked. */
export const listOptions = (kind: FilterKind, context: RouteContext) => ({
  ...context,
  filters: parseFilters(kind, context.lists.filter ?? []),
  clusters: context.lists.cluster ?? [],
});

export const boolean = (description: string): QueryParam => ({
  description: `${description} (true or 1; false or 0)`,
  schema: { type: "string", enum: [...BOOLEAN_VALUES] },
});
/** A pattern without its anchors, to join into another. */
const unanchored = (pattern: RegExp) => pattern.source.replace(/^\^|\$$/g, "");

export const time = (description: string): QueryParam => ({
  description:
    `${description}: Unix seconds, a date and time (2026-11-22, 2026-11-22T10:00, RFC 3339; ` +
    "local time without a zone) or a duration before now such as 10m",
  schema: {
    type: "string",
    pattern: `^(?:${[UNIX_TIME, DURATION, DATE_TIME].map(unanchored).join("|")})$`,
  },
});

export const ENGINE: ErrorCode[] = ["ENGINE_UNREACHABLE", "ENGINE_ERROR", "ENGINE_TIMEOUT"];
export const CLUSTER: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", ...ENGINE];
export const CONTAINER: ErrorCode[] = [...CLUSTER, "CONTAINER_NOT_FOUND", "AMBIGUOUS_NAME"];
export const LIST: ErrorCode[] = [...CLUSTER, "INVALID_QUERY"];
/** Across clusters, engines' failures are in the body's `errors`, never the status. */
export const ACROSS: ErrorCode[] = ["INVALID_NAME", "CLUSTER_NOT_FOUND", "INVALID_QUERY"];
