import { DocklensError } from "./errors.ts";

/** Query parameters as they arrive: one value per name. */
export type QueryInput = Record<string, string | undefined>;

/** Reject any parameter a route does not know, so that a typo is an error, not ignored. */
export function checkQueryNames(query: QueryInput, known: readonly string[]): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length) invalid(`unknown query parameter ${JSON.stringify(unknown[0])}; known: ${known.join(", ")}`);
}

/** `true`, `1`, `yes` or an empty value are true; `false`, `0`, `no` false; absent is `fallback`. */
export function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (["", "true", "1", "yes"].includes(value)) return true;
  if (["false", "0", "no"].includes(value)) return false;
  return invalid(`${name}: expected true or false, got ${JSON.stringify(value.slice(0, 40))}`);
}

/** One of `choices`, or `fallback` when absent. */
export function parseChoice<T extends string>(name: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  return invalid(`${name}: expected ${choices.join(", ")}, got ${JSON.stringify(value.slice(0, 40))}`);
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * A point in time as Unix seconds: Unix seconds (`1763700000`, `1763700000.5`), RFC 3339
 * (`2026-11-21T05:00:00Z`), or a duration before `now` (`10m`, `1h30m`, `45s`, `2d`), as
 * `docker logs --since` takes them.
 */
export function parseTime(name: string, value: string, now: number = Date.now()): number {
  if (/^\d{1,12}(\.\d{1,9})?$/.test(value)) return Number(value);
  if (/^(\d{1,12}(ms|s|m|h|d)){1,5}$/.test(value)) {
    const seconds = [...value.matchAll(/(\d+)(ms|s|m|h|d)/g)].reduce((sum, [, count, unit]) => sum + Number(count) * UNITS[unit!]!, 0);
    // Before 1970 is no time an engine knows: the duration is too long.
    if (seconds <= now / 1000) return now / 1000 - seconds;
  }
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return time / 1000;
  }
  return invalid(`${name}: expected Unix seconds, an RFC 3339 time or a duration like 10m, got ${JSON.stringify(value.slice(0, 40))}`);
}

function invalid(message: string): never {
  throw new DocklensError("INVALID_QUERY", message);
}
