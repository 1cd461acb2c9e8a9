// What a time field of an input takes (`since`, `until`): the rule the decoder applies and the
// pattern the documents give, one regular expression for both.
import { invalidInput } from "../core/errors.ts";
import { unanchored } from "../core/names.ts";

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Unix seconds with an optional fraction, as the engine takes them. */
const UNIX_TIME = /^\d{1,12}(\.\d{1,9})?$/;
/** A duration before now: `10m`, `1h30m`, `45s`, `2d`, `500ms`. */
const DURATION = /^(\d{1,12}(ms|s|m|h|d)){1,5}$/;

/** A day that exists: the days of each month, and 29 February of leap years only. */
const DAY =
  "\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)" +
  "|02-(?:0[1-9]|1\\d|2[0-8]))|(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29";
const CLOCK = "T(?:[01]\\d|2[0-3])(?::[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?)?";
const ZONE = "[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d";
/**
 * A date, optionally with a time and a zone, in the forms `docker logs --since` takes:
 * `2026-11-22`, `2026-11-22T10`, `2026-11-22T10:00`, `2026-11-22T10:00:05.5`, each with an
 * optional `Z` or `+01:00`; only days, hours, minutes, seconds and offsets that exist. Without a
 * zone it is local time at the offset in force now, as docker reads it (`time.FixedZone` of the
 * reference time's zone).
 */
const DATE_TIME = new RegExp(`^(?:${DAY})(?:${CLOCK})?(?:${ZONE})?$`);

/**
 * Every value {@link parseTime} takes, and nothing else: the OpenAPI document gives it as the
 * pattern of `since` and `until`, and parseTime accepts by it, so that the two cannot differ.
 */
export const TIME = new RegExp(
  `^(?:${[UNIX_TIME, DURATION, DATE_TIME].map(unanchored).join("|")})$`,
);

/** The parts of a {@link DATE_TIME}, which it has already checked. */
const DATE_PARTS = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d)(?::(\d\d)(?::(\d\d)(\.\d+)?)?)?)?(.*)$/;

/**
 * A point in time as Unix seconds: Unix seconds (`1763700000`, `1763700000.5`), a date and
 * time ({@link DATE_TIME}), or a duration before `now` (`10m`, `1h30m`, `45s`, `2d`). A time
 * before 1970 (`100000000d`, `1900-01-01`) is 1970's start, where every engine's record begins,
 * as docker's negative Unix time reads.
 */
export function parseTime(name: string, value: string, now: number = Date.now()): number {
  if (!TIME.test(value))
    return invalidInput(
      name,
      "expected Unix seconds, a date and time (2026-11-22, 2026-11-22T10:00, RFC 3339) " +
        `or a duration like 10m, got ${quote(value)}`,
    );
  if (UNIX_TIME.test(value)) return Number(value);
  if (DURATION.test(value)) {
    const seconds = [...value.matchAll(/(\d+)(ms|s|m|h|d)/g)].reduce(
      (sum, [, count, unit]) => sum + Number(count) * UNITS[unit!]!,
      0,
    );
    return Math.max(0, now / 1000 - seconds);
  }
  const [, year, month, day, hour, minute, second, fraction, zone] = DATE_PARTS.exec(value)!;
  const minutesEast = !zone
    ? -new Date(now).getTimezoneOffset()
    : /z/i.test(zone)
      ? 0
      : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0));
  return Math.max(0, (date.getTime() - minutesEast * 60_000) / 1000 + Number(fraction ?? 0));
}

function quote(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
