import { describe, expect, it } from "vitest";
import { compareStrings } from "../../src/core/compare.ts";

describe("compareStrings", () => {
  const words = ["b", "B", "a", "_x", "-x", "é", "e", "10", "9"];

  it("orders by code unit by default, exactly as < does", () => {
    const byLessThan = [...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect([...words].sort((a, b) => compareStrings(a, b))).toEqual(byLessThan);
    expect(compareStrings("a", "a")).toBe(0);
  });

  it("orders as localeCompare with the locale collation", () => {
    const byLocale = [...words].sort((a, b) => a.localeCompare(b));
    expect([...words].sort((a, b) => compareStrings(a, b, "locale"))).toEqual(byLocale);
  });
});
