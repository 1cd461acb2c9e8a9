import { describe, expect, it } from "vitest";
import { parseEngineJson, toJsonText } from "../../src/core/json.ts";

describe("engine JSON: integers beyond 2^53 pass through exactly", () => {
  it.each([
    [
      '{"hierarchical_memory_limit":9223372036854771712}',
      '{"hierarchical_memory_limit":9223372036854771712}',
    ],
    [
      '{"a":[18446744073709551615,-9223372036854775808]}',
      '{"a":[18446744073709551615,-9223372036854775808]}',
    ],
    ['{"limit": 9223372036854771712, "usage": 1024}', '{"limit":9223372036854771712,"usage":1024}'],
    [
      '{"safe":9007199254740991,"float":1.5,"exp":1e21}',
      '{"safe":9007199254740991,"float":1.5,"exp":1e+21}',
    ],
    // Digits inside strings (ids) never make a number of them.
    [
      '{"Id":"12345678901234567890abc","n":"99999999999999999999"}',
      '{"Id":"12345678901234567890abc","n":"99999999999999999999"}',
    ],
  ])("%s", (engine, served) => {
    expect(toJsonText(parseEngineJson(engine))).toBe(served);
  });

  it("keeps the last of a key given twice, as JSON.parse does", () => {
    expect(parseEngineJson('{"a":1,"a":2,"big":9223372036854771712}')).toEqual({
      a: 2,
      big: 9223372036854771712n,
    });
  });

  it("keeps big values as BigInt and the rest as numbers", () => {
    expect(parseEngineJson('{"big":9223372036854771712,"small":3}')).toEqual({
      big: 9223372036854771712n,
      small: 3,
    });
    expect(parseEngineJson('{"Id":"1234567890123456789"}')).toEqual({ Id: "1234567890123456789" });
  });

  it("indents like JSON.stringify, with BigInts or without", () => {
    expect(toJsonText({ a: 1 }, 2)).toBe(JSON.stringify({ a: 1 }, null, 2));
    expect(toJsonText({ a: 9223372036854771712n, b: [1] }, 2)).toBe(
      '{\n  "a": 9223372036854771712,\n  "b": [\n    1\n  ]\n}',
    );
  });
});
