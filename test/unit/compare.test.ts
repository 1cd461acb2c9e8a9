import { describe, expect, it } from "vitest";
import { compareStrings } from "../../src/core/compare.ts";

/** docker's natural order (sortorder's NaturalLess, as docker network ls, volume ls and context ls sort). */
describe("compareStrings: one natural order of names", () => {
  it.each([
    // A run of digits by its value.
    [
      ["run-10", "run-2", "run-1"],
      ["run-1", "run-2", "run-10"],
    ],
    [
      ["web-10", "web-9", "web"],
      ["web", "web-9", "web-10"],
    ],
    [
      ["v1.10.0", "v1.9.2", "v1.2.0"],
      ["v1.2.0", "v1.9.2", "v1.10.0"],
    ],
    [
      ["10.0.0.2", "9.1.1.1", "10.0.0.10"],
      ["9.1.1.1", "10.0.0.2", "10.0.0.10"],
    ],
    [
      ["a99999999999999999999", "a100000000000000000000", "a2"],
      ["a2", "a99999999999999999999", "a100000000000000000000"],
    ],
    // Equal values: fewer leading zeros first.
    [
      ["node10", "node009", "node9", "node09"],
      ["node9", "node09", "node009", "node10"],
    ],
    // Digits before any other character; the others by code unit, as docker's bytes.
    [
      ["::", "0.0.0.0", "a"],
      ["0.0.0.0", "::", "a"],
    ],
    [
      ["b", "B", "a-1", "a"],
      ["B", "a", "a-1", "b"],
    ],
    [
      ["web_1", "web-1", "web1", "web.1"],
      ["web1", "web-1", "web.1", "web_1"],
    ],
    [
      ["é", "f", "e"],
      ["e", "f", "é"],
    ],
    [
      ["", "a", "0"],
      ["", "0", "a"],
    ],
  ])("%j sorts as %j", (given, sorted) => {
    expect([...given].sort(compareStrings)).toEqual(sorted);
    expect([...given].reverse().sort(compareStrings)).toEqual(sorted);
  });

  it.each([
    ["a", "a", 0],
    ["run-2", "run-10", -1],
    ["09", "9", 1],
    ["a1b", "a01", -1],
    ["abc", "ab", 1],
  ])("compareStrings(%j, %j) has the sign %d", (a, b, sign) => {
    expect(Math.sign(compareStrings(a, b))).toBe(sign);
    expect(Math.sign(compareStrings(b, a))).toBe(-sign || 0);
  });
});
