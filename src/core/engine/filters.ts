import type { StatusErrors } from "./engine.ts";
import { invalidInput } from "../errors.ts";
import { unanchored } from "../names.ts";

/** The values docker takes for a boolean, and nothing else: one rule for filters and inputs. */
export const BOOLEAN_VALUES = ["true", "false", "1", "0"] as const;
import type { CoreOptions } from "./fleet.ts";
import type { FilterKey, FilterKind } from "../filter-keys.ts";

export type { FilterKind } from "../filter-keys.ts";

/** Filters as the engine takes them in its `filters` query parameter: key to values. */
export type EngineFilters = Record<string, string[]>;

/**
 * Docker's filter keys for each list, as `docker ps`, `docker images`, `docker volume ls` and
 * `docker network ls` take them; a key with values lists the ones the engine knows, any other
 * takes any value (a name, a label `key` or `key=value`, an id, a time, a port).
 */
export const FILTER_KEYS: Record<FilterKind, Record<string, readonly string[] | null>> = {
  containers: {
    ancestor: null,
    before: null,
    expose: null,
    exited: null,
    health: ["starting", "healthy", "unhealthy", "none"],
    id: null,
    isolation: ["default", "process", "hyperv"],
    "is-task": BOOLEAN_VALUES,
    label: null,
    name: null,
    network: null,
    publish: null,
    since: null,
    status: ["created", "restarting", "running", "removing", "paused", "exited", "dead"],
    volume: null,
  },
  images: {
    before: null,
    dangling: BOOLEAN_VALUES,
    label: null,
    reference: null,
    since: null,
    until: null,
  },
  volumes: { dangling: BOOLEAN_VALUES, driver: null, label: null, name: null },
  networks: {
    dangling: BOOLEAN_VALUES,
    driver: null,
    id: null,
    label: null,
    name: null,
    scope: ["swarm", "global", "local"],
    type: ["custom", "builtin"],
  },
  events: {
    config: null,
    container: null,
    daemon: null,
    event: null,
    image: null,
    label: null,
    network: null,
    node: null,
    plugin: null,
    scope: ["local", "swarm"],
    secret: null,
    service: null,
    type: [
      "container",
      "image",
      "volume",
      "network",
      "daemon",
      "plugin",
      "node",
      "service",
      "secret",
      "config",
    ],
    volume: null,
  },
  // Exactly the keys core/filter-keys.ts names, which the CLI's help lists.
} satisfies { [K in FilterKind]: Record<FilterKey<K>, readonly string[] | null> };

/** A value of `exited` is an exit code. */
const EXIT_CODE = /^-?\d{1,10}$/;

/**
 * Check `--filter key=value` entries against the keys docker takes for `kind` and group them as
 * the engine's `filters` parameter wants them; `undefined` for none. The engine then filters,
 * so the meaning is exactly docker's. An unknown key or malformed value is `INVALID_QUERY`
 * naming the allowed keys.
 * @example
 * ```ts
 * const filters = parseFilters("containers", ["health=unhealthy", "label=app=web"]);
 * const { containers } = await listAllContainers({ fleet, filters });
 * ```
 */
export function parseFilters(
  kind: FilterKind,
  entries: readonly string[],
): EngineFilters | undefined {
  if (!entries.length) return undefined;
  const keys = FILTER_KEYS[kind];
  const filters: EngineFilters = {};
  for (const entry of entries) {
    const eq = entry.indexOf("=");
    const key = eq === -1 ? entry : entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (!Object.hasOwn(keys, key)) {
      invalidInput(
        "filter",
        `unknown filter ${JSON.stringify(key.slice(0, 40))} for ${kind}; known: ${Object.keys(keys).join(", ")}`,
      );
    }
    if (eq === -1 || value === "")
      invalidInput("filter", `expected ${key}=value, got ${JSON.stringify(entry.slice(0, 60))}`);
    const allowed = keys[key];
    if (allowed && !allowed.includes(value))
      invalidInput(
        "filter",
        `${key}: expected ${allowed.join(", ")}, got ${JSON.stringify(value.slice(0, 40))}`,
      );
    if (key === "exited" && !EXIT_CODE.test(value))
      invalidInput(
        "filter",
        `exited: expected an exit code, got ${JSON.stringify(value.slice(0, 40))}`,
      );
    (filters[key] ??= []).push(value);
  }
  return filters;
}

/** A pattern of every entry {@link parseFilters} accepts for `kind`, for documents that describe it. */
export function filterPattern(kind: FilterKind): string {
  const forms = Object.entries(FILTER_KEYS[kind]).map(([key, values]) =>
    values
      ? `${key}=(?:${values.join("|")})`
      : key === "exited"
        ? `exited=${unanchored(EXIT_CODE)}`
        : `${key}=.+`,
  );
  return `^(?:${forms.join("|")})$`;
}

/** Options of the list operations that take filters. */
export interface ListOptions extends CoreOptions {
  /** Docker's filters, from {@link parseFilters}; the engine applies them. */
  filters?: EngineFilters;
}

/**
 * What an engine says when it refuses a filter value rather than fails: older engines answer 500
 * to `before=nope` ("no such container nope") and to a port that is not one.
 */
const REFUSED_FILTER = /filter|no such (container|image)|error while looking up/i;

/**
 * How a list call with `filters` is made: the engine query, and the engine's refusal of a filter
 * value (a 400 or 404, or a 500 that says so) as the user's `INVALID_QUERY` naming the filter (the
 * one whose value the engine's words name, else all), not an engine failure.
 */
export function filteredCall(filters: EngineFilters | undefined): {
  query: Record<string, string>;
  statuses?: StatusErrors;
} {
  if (!filters) return { query: {} };
  const entries = Object.entries(filters).flatMap(([key, values]) =>
    values.map((value) => ({ entry: `${key}=${value}`, value })),
  );
  const refused = {
    code: "INVALID_QUERY" as const,
    message: (engine: string) => {
      const named = entries.filter(({ value }) => value && engine.includes(value));
      const shown = (named.length ? named : entries).map(({ entry }) => entry).join(", ");
      return `filter: ${shown}: not a value the engine takes (${engine})`;
    },
    param: "filter",
  };
  return {
    query: { filters: JSON.stringify(filters) },
    statuses: { 400: refused, 404: refused, 500: { ...refused, when: REFUSED_FILTER } },
  };
}
