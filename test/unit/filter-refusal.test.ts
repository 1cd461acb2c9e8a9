import { describe, expect, it } from "vitest";
import { filteredCall } from "../../src/core/engine/filters.ts";

describe("a filter value the engine refuses is the user's error, naming the filter", () => {
  const refusal = (filters: Record<string, string[]>, engine: string) => {
    const refused = filteredCall(filters).statuses![400]!;
    return {
      code: refused.code,
      message: (refused.message as (engine: string) => string)(engine),
    };
  };

  it.each([
    [
      { before: ["nope"] },
      "no such container nope",
      "filter: before=nope: not a value the engine takes (no such container nope)",
    ],
    [
      { name: ["web"], before: ["nope"] },
      "invalid filter 'before=nope'",
      "filter: before=nope: not a value the engine takes (invalid filter 'before=nope')",
    ],
    // The engine's words name no value: every filter given is named.
    [
      { publish: ["80-x"], name: ["web"] },
      "invalid port range",
      "filter: publish=80-x, name=web: not a value the engine takes (invalid port range)",
    ],
  ])("%j, the engine says %j", (filters, engine, message) => {
    expect(refusal(filters, engine)).toEqual({ code: "INVALID_QUERY", message });
  });
});
