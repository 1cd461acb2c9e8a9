import { describe, expect, it } from "vitest";
import { parseTime } from "../../src/operations/time.ts";
import { queryParam } from "../../src/operations/input-schema.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
/** The pattern the OpenAPI document gives `since` and `until`, read as a JSON Schema validator reads it. */
const documented = new RegExp(
  queryParam({ kind: "time", description: "" }).schema.pattern as string,
  "u",
);
const accepted = (value: string) => {
  try {
    parseTime("since", value, NOW);
    return true;
  } catch {
    return false;
  }
};

describe("since and until: the OpenAPI document's pattern and the server agree", () => {
  it.each([
    // Unix seconds
    ["0", true],
    ["1763700000.123456789", true],
    ["1763700000.1234567890", false],
    ["1234567890123", false],
    ["-5", false],
    ["1e9", false],
    // durations, the ones reaching before 1970 included (they mean 1970)
    ["10m", true],
    ["1h30m", true],
    ["500ms", true],
    ["99999d", true],
    ["999999999999d", true],
    ["1m1m1m1m1m", true],
    ["1m1m1m1m1m1m", false],
    ["10 m", false],
    ["10y", false],
    // dates
    ["2026-11-21", true],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["2026-02-30", false],
    ["2026-02-29", false],
    ["2024-02-29", true],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2026-04-31", false],
    ["2026-12-31", true],
    ["2026-01-00", false],
    ["1900-01-01", true],
    ["0099-06-01", true],
    // times and zones
    ["2026-11-21T23:59:59.999999999Z", true],
    ["2026-11-21T24:00", false],
    ["2026-11-21T25", false],
    ["2026-11-21T10:60", false],
    ["2026-11-21T10:00:60", false],
    ["2026-11-21T10:00:05.5", true],
    ["2026-11-21T10:00:05.1234567890", false],
    ["2026-11-21T10:30+01:00", true],
    ["2026-11-21T10:30-23:59", true],
    ["2026-11-21T10:30+24:00", false],
    ["2026-11-21T10:30+01:60", false],
    ["2026-11-21z", true],
    ["2026-11-21 10:00", false],
    ["", false],
    ["yesterday", false],
  ])("%j: %s", (value, valid) => {
    expect({ document: documented.test(value), server: accepted(value) }).toEqual({
      document: valid,
      server: valid,
    });
  });

  it("reads a time before 1970 as 1970's start, the years 0 to 99 included (not 1900 to 1999)", () => {
    expect(parseTime("since", "99999d", NOW)).toBe(0);
    expect(parseTime("until", "1900-01-01Z", NOW)).toBe(0);
    expect(parseTime("until", "0099-06-01Z", NOW)).toBe(0);
    expect(parseTime("since", "2024-02-29T12:00Z", NOW)).toBe(Date.UTC(2024, 1, 29, 12) / 1000);
  });
});
