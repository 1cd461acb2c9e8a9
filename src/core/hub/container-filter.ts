// Docker's container filters applied by docklens to a mirrored container, so that a rule's
// selection is answered from the cluster's live mirror, not by one engine list per event. The
// rules are moby's (daemon/list.go, `includeContainerInList`; api/types/filters' `Match`, an
// exact or unanchored Go regular expression, and `MatchKVList`). Keys that need more than a list
// item (ancestor, network, volume, publish, expose, before, since, isolation, is-task) are left to
// the engine: no local test is made for them.
import type { EngineFilters } from "../engine/filters.ts";
import { matchLabels } from "./event-filter.ts";
import type { StateTimes } from "./status-text.ts";

/** What of a list item the local filters read. */
export interface FilteredItem {
  Id: string;
  Names?: readonly string[] | null;
  Labels?: Record<string, string> | null;
  State?: unknown;
  Status?: unknown;
}

/** A local test: true or false as the engine's list would answer, undefined when it cannot tell. */
export type ContainerFilter = (item: FilteredItem, state?: StateTimes) => boolean | undefined;

const LOCAL_KEYS = new Set(["id", "name", "label", "status", "exited", "health"]);

/** Whether {@link compileContainerFilters} makes a local test of `filters` (no key needs the engine). */
export function filtersAreLocal(filters: EngineFilters | undefined): boolean {
  return Object.keys(filters ?? {}).every((key) => !filters![key]!.length || LOCAL_KEYS.has(key));
}

/**
 * The local test of `filters`, or undefined when a key needs the engine. Values are read as
 * moby reads them: `id`, `name` and `status` match exactly or as an unanchored RE2 pattern (a
 * pattern RE2 does not read matches nothing, as in moby).
 * @example
 * ```ts
 * const test = await compileContainerFilters({ label: ["tier=web"], status: ["running"] });
 * test?.({ Id: "ab12", Labels: { tier: "web" }, State: "running", Status: "Up 2 hours" }); // true
 * ```
 */
export function compileContainerFilters(
  filters: EngineFilters | undefined,
): Promise<ContainerFilter | undefined> {
  if (!filters) return compile(undefined);
  // A rule's filters are one object for as long as it runs: compiled once, not per event.
  let test = compiled.get(filters);
  if (!test) compiled.set(filters, (test = compile(filters)));
  return test;
}

const compiled = new WeakMap<EngineFilters, Promise<ContainerFilter | undefined>>();

async function compile(filters: EngineFilters | undefined): Promise<ContainerFilter | undefined> {
  if (!filtersAreLocal(filters)) return undefined;
  const values = (key: string) => filters?.[key] ?? [];
  const [id, name, status] = await Promise.all(
    ["id", "name", "status"].map((key) => match(values(key))),
  );
  const exited = values("exited").map(Number);
  const health = values("health");
  return (item, state) => {
    const names = (item.Names ?? []).filter((one) => one.lastIndexOf("/") === 0);
    const own = names[0] ?? "";
    if (!id!(item.Id) || !(name!(own) || name!(own.slice(1)))) return false;
    if (!matchLabels(values("label"), item.Labels ?? {})) return false;
    const listed = typeof item.State === "string" ? item.State : "";
    if (!status!(listed)) return false;
    if (exited.length) {
      const code = exitCode(listed, item.Status);
      if (code === undefined) return undefined;
      if (code === null || !exited.includes(code)) return false;
    }
    if (health.length) {
      const now = healthOf(listed, item.Status, state);
      if (now === undefined) return undefined;
      if (!health.includes(now)) return false;
    }
    return true;
  };
}

/** moby's `Args.Match`: no values, or one equal to `source` or found in it as an RE2 pattern. */
async function match(values: readonly string[]): Promise<(source: string) => boolean> {
  if (!values.length) return () => true;
  const { RE2JS } = await import("re2js");
  const patterns = values.flatMap((value) => {
    try {
      return [RE2JS.compile(value)];
    } catch {
      return [];
    }
  });
  return (source) =>
    values.includes(source) || patterns.some((pattern) => pattern.matcher(source).find());
}

/**
 * The exit code the `exited` filter compares: null for a container that is running or never ran
 * (it never matches), undefined when the item cannot tell (dead, removing).
 */
function exitCode(state: string, status: unknown): number | null | undefined {
  if (state === "running" || state === "paused" || state === "restarting" || state === "created")
    return null;
  if (state !== "exited") return undefined;
  const code = /^Exited \((-?\d+)\)/.exec(typeof status === "string" ? status : "")?.[1];
  return code === undefined ? undefined : Number(code);
}

/**
 * moby's `HealthString`: `none` without a health check, else its status. A running container's
 * list item says it (`Up 2 hours (healthy)`); a stopped one's only its inspect body.
 */
function healthOf(state: string, status: unknown, times?: StateTimes): string | undefined {
  if (times) return times.Health?.Status || "none";
  if (state !== "running") return undefined;
  const text = typeof status === "string" ? status : "";
  if (text.endsWith("(health: starting)")) return "starting";
  return /\((healthy|unhealthy)\)$/.exec(text)?.[1] ?? "none";
}
