// The query parameters of the routes as the OpenAPI document gives them: each field of an
// operation's input (operations/input.ts), as the JSON Schema of exactly the values its decoder
// accepts, made of the very patterns and bounds that check them.
import { TAIL } from "../core/containers/logs.ts";
import { PS_ARGS } from "../core/containers/processes.ts";
import { BOOLEAN_VALUES, FILTER_KEYS, filterPattern } from "../core/engine/filters.ts";
import { NAME_PATTERN, unanchored } from "../core/names.ts";
import { BOUNDS, type FieldDecl } from "../operations/input.ts";
import { TIME } from "../operations/time.ts";

/** A query parameter: what it does, and the JSON Schema of exactly the values the route accepts. */
export interface QueryParam {
  description: string;
  schema: Record<string, unknown>;
  /** Given any number of times (`filter=a=1&filter=b=2`); its schema is then an array's. */
  repeatable?: boolean;
}

/** `cluster`, repeatable: the clusters an across-cluster route asks (all when absent). */
const CLUSTERS: QueryParam = {
  description: "A cluster to ask, by name or id, repeatable; every cluster when absent",
  schema: {
    type: "array",
    maxItems: BOUNDS.clusters,
    items: {
      type: "string",
      pattern: `^(?:\\d{1,15}|${unanchored(NAME_PATTERN)})$`,
      maxLength: BOUNDS.clusterLength,
    },
  },
  repeatable: true,
};

const TIME_FORMS =
  ": Unix seconds, a date and time (2026-11-22, 2026-11-22T10:00, RFC 3339; " +
  "local time without a zone) or a duration before now such as 10m";

/** The query parameter a field of a route's input is. */
export function queryParam(decl: FieldDecl): QueryParam {
  switch (decl.kind) {
    case "filter":
      return {
        description:
          `docker's filters for ${decl.of}, key=value, repeatable ` +
          `(keys: ${Object.keys(FILTER_KEYS[decl.of]).join(", ")})`,
        schema: {
          type: "array",
          maxItems: BOUNDS.filters,
          items: {
            type: "string",
            pattern: filterPattern(decl.of),
            maxLength: BOUNDS.filterLength,
          },
        },
        repeatable: true,
      };
    case "clusters":
      return CLUSTERS;
    case "time":
      return {
        description: `${decl.description}${TIME_FORMS}`,
        // 70: five parts of twelve digits and `ms`, the longest form the pattern takes.
        schema: { type: "string", pattern: TIME.source, maxLength: 70 },
      };
    case "boolean":
      return {
        description: `${decl.description} (true or 1; false or 0)`,
        schema: { type: "string", enum: [...BOOLEAN_VALUES] },
      };
    case "tail":
      return {
        description: decl.description,
        schema: { type: "string", pattern: TAIL.source, maxLength: 9 },
      };
    case "psArgs":
      return {
        description: decl.description,
        schema: { type: "string", pattern: PS_ARGS.source, maxLength: 64 },
      };
    case "choice":
      return { description: decl.description, schema: { type: "string", enum: [...decl.values] } };
    case "choices":
      return {
        description: decl.description,
        schema: {
          type: "array",
          maxItems: decl.values.length,
          items: { type: "string", enum: [...decl.values] },
        },
        repeatable: true,
      };
    case "name":
      return {
        description: decl.description,
        schema: { type: "string", pattern: NAME_PATTERN.source, maxLength: decl.maxLength },
      };
    case "pattern":
      return {
        description: decl.description,
        // Any text of 1 to maxLength characters; what it must be beyond that, the core checks.
        schema: {
          type: "string",
          pattern: `^[\\s\\S]{1,${decl.maxLength}}$`,
          maxLength: decl.maxLength,
        },
      };
  }
}
