import { describe, expect, it } from "vitest";
import { escapeControls, escapeStrings } from "../../src/cli/render/escape.ts";

describe("escapeControls writes control characters as docker inspect does", () => {
  it.each([
    ["\u001b]0;title\u0007\u001b[31m", "\\u001b]0;title\\u0007\\u001b[31m"],
    ["a\nb\tc\rd", "a\\nb\\tc\\rd"],
    ["\u0000\u007f\u009b", "\\u0000\\u007f\\u009b"],
    ["plain é 🦭 \\u001b", "plain é 🦭 \\u001b"],
  ])("%j → %j", (input, output) => {
    expect(escapeControls(input)).toBe(output);
    // The same as Go's (and JavaScript's) JSON for C0 controls.
    if (!/[\u007f-\u009f\\]/.test(input)) expect(JSON.stringify(input).slice(1, -1)).toBe(output);
  });

  it("escapeStrings reaches every string of a result, keys too, and keeps other objects", () => {
    const map = new Map([["k", "\u001b"]]);
    expect(
      escapeStrings({ a: ["\u001b[31m", 1, null], "b\u0007": { c: "\n" }, map, n: 10n }),
    ).toEqual({ a: ["\\u001b[31m", 1, null], "b\\u0007": { c: "\\n" }, map, n: 10n });
  });
});
