// Docker's event filters, applied by docklens to the events of a cluster's shared subscription
// (event-hub.ts), which asks the engine for all of them once. The rules are moby's
// (daemon/events/filter.go, `Filter.Include`, and api/types/filters' ExactMatch, FuzzyMatch and
// MatchKVList), so a follower sees what `docker events --filter` would show it.
import type { EngineFilters } from "../engine/filters.ts";
import type { EngineEvent } from "./event-hub.ts";

interface Actor {
  ID?: string;
  Attributes?: Record<string, string>;
}

/** Event types whose `key=value` filter matches the actor's id or name by prefix (`fuzzyMatchName`). */
const BY_NAME = [
  "container",
  "daemon",
  "plugin",
  "volume",
  "network",
  "node",
  "service",
  "secret",
  "config",
] as const;

/** Actions that `event=` matches by prefix: their events carry a suffix (`health_status: healthy`). */
const FUZZY_ACTIONS = new Set(["health_status", "exec_create", "exec_start"]);

/**
 * Whether `event` passes `filters`, as the engine decides it for `GET /events?filters=...`.
 * @example
 * ```ts
 * matchesEventFilters({ Type: "container", Action: "start", Actor: { ID: "ab12", Attributes: { name: "web" } } },
 *   { type: ["container"], container: ["web"] }); // true
 * ```
 */
export function matchesEventFilters(
  event: EngineEvent,
  filters: EngineFilters | undefined,
): boolean {
  if (!filters) return true;
  const actor = (event.Actor ?? {}) as Actor;
  const attributes = actor.Attributes ?? {};
  const id = actor.ID ?? "";
  const action = typeof event.Action === "string" ? event.Action : "";
  const type = typeof event.Type === "string" ? event.Type : "";
  const values = (key: string) => filters[key] ?? [];
  const fuzzyEvent = values("event").some((value) => FUZZY_ACTIONS.has(value));
  return (
    (fuzzyEvent ? fuzzy(values("event"), action) : exact(values("event"), action)) &&
    exact(values("type"), type) &&
    (!values("scope").length ||
      exact(values("scope"), typeof event.scope === "string" ? event.scope : "")) &&
    // Whatever the event's type: a `container=web` filter leaves out a network's events, as the engine's does.
    BY_NAME.every((key) => fuzzy(values(key), id) || fuzzy(values(key), attributes.name ?? "")) &&
    matchImage(values("image"), type, id, attributes) &&
    matchLabels(values("label"), attributes)
  );
}

/** No values, or `source` is one of them. */
function exact(values: readonly string[], source: string): boolean {
  return !values.length || values.includes(source);
}

/** No values, or `source` starts with one of them. */
function fuzzy(values: readonly string[], source: string): boolean {
  return !values.length || values.some((value) => source.startsWith(value));
}

/** The image filter: the actor's id or image name, with or without its tag. */
function matchImage(
  values: readonly string[],
  type: string,
  id: string,
  attributes: Record<string, string>,
): boolean {
  if (!values.length) return true;
  const name = attributes[type === "image" ? "name" : "image"] ?? "";
  return [id, name, stripTag(id), stripTag(name)].some((source) => values.includes(source));
}

/** `repo:tag` without its tag (a registry's port is no tag); a digest reference stays whole. */
function stripTag(reference: string): string {
  if (reference.includes("@")) return reference;
  const colon = reference.lastIndexOf(":");
  return colon > reference.lastIndexOf("/") ? reference.slice(0, colon) : reference;
}

/** Every `key` or `key=value` is among the attributes (moby's MatchKVList). */
export function matchLabels(
  values: readonly string[],
  attributes: Record<string, string>,
): boolean {
  if (!values.length) return true;
  return values.every((value) => {
    const eq = value.indexOf("=");
    const key = eq === -1 ? value : value.slice(0, eq);
    if (!(key in attributes)) return false;
    return eq === -1 || attributes[key] === value.slice(eq + 1);
  });
}
