import { DocklensError } from "./errors.ts";

/**
 * A pattern's source without its `^` and `$`, to join into another pattern (`^(?:a|b)$`): the
 * documents describe what a parameter takes with the very patterns that check it.
 */
export function unanchored(pattern: RegExp): string {
  return pattern.source.replace(/^\^|\$$/g, "");
}

/** Query parameters as they arrive: one value per name. */
export type QueryInput = Record<string, string | undefined>;

/** Reject any parameter a route does not know, so that a typo is an error, not ignored. */
export function checkQueryNames(query: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length)
    throw new DocklensError(
      "INVALID_QUERY",
      `unknown query parameter ${JSON.stringify(unknown[0])}; known: ${known.join(", ")}`,
    );
}

/** The values a boolean query parameter takes, and nothing else: one rule on every route. */
export const BOOLEAN_VALUES = ["true", "false", "1", "0"] as const;

/** `true` or `1` is true, `false` or `0` false, absent is `fallback`; anything else is `INVALID_QUERY`. */
export function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return invalidQuery(name, `expected true, false, 1 or 0, got ${quote(value)}`);
}

/** One of `choices`, or `fallback` when absent. */
export function parseChoice<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  return invalidQuery(name, `expected ${choices.join(", ")}, got ${quote(value)}`);
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Unix seconds with an optional fraction, as the engine takes them. */
export const UNIX_TIME = /^\d{1,12}(\.\d{1,9})?$/;
/** A duration before now: `10m`, `1h30m`, `45s`, `2d`, `500ms`. */
export const DURATION = /^(\d{1,12}(ms|s|m|h|d)){1,5}$/;
/**
 * A date, optionally with a time and a zone, in the forms `docker logs --since` takes:
 * `2026-11-22`, `2026-11-22T10`, `2026-11-22T10:00`, `2026-11-22T10:00:05.5`, each with an
 * optional `Z` or `+01:00`. Without a zone it is local time at the offset in force now, as
 * docker reads it (`time.FixedZone` of the reference time's zone).
 */
export const DATE_TIME =
  /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d)(?::(\d\d)(?::(\d\d)(\.\d{1,9})?)?)?)?([Zz]|[+-]\d\d:\d\d)?$/;

/**
 * A point in time as Unix seconds: Unix seconds (`1763700000`, `1763700000.5`), a date and
 * time ({@link DATE_TIME}), or a duration before `now` (`10m`, `1h30m`, `45s`, `2d`).
 */
export function parseTime(name: string, value: string, now: number = Date.now()): number {
  if (UNIX_TIME.test(value)) return Number(value);
  if (DURATION.test(value)) {
    const seconds = [...value.matchAll(/(\d+)(ms|s|m|h|d)/g)].reduce(
      (sum, [, count, unit]) => sum + Number(count) * UNITS[unit!]!,
      0,
    );
    // Before 1970 is no time an engine knows: the duration is too long.
    if (seconds <= now / 1000) return now / 1000 - seconds;
  }
  const date = DATE_TIME.exec(value);
  if (date) {
    const [year, month, day, hour, minute, second] = date
      .slice(1, 7)
      .map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
    const zone = date[8];
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= daysInMonth &&
      hour < 24 &&
      minute < 60 &&
      second < 60
    ) {
      const minutesEast = !zone
        ? -new Date(now).getTimezoneOffset()
        : /z/i.test(zone)
          ? 0
          : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
      return (
        (Date.UTC(year, month - 1, day, hour, minute, second) - minutesEast * 60_000) / 1000 +
        Number(date[7] ?? 0)
      );
    }
  }
  return invalidQuery(
    name,
    "expected Unix seconds, a date and time (2026-11-22, 2026-11-22T10:00, RFC 3339) " +
      `or a duration like 10m, got ${quote(value)}`,
  );
}

/** An `INVALID_QUERY` about parameter `name`: `name: what was expected`. */
export function invalidQuery(name: string, expected: string): never {
  throw new DocklensError("INVALID_QUERY", `${name}: ${expected}`, { param: name });
}

function quote(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
