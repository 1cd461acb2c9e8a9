import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compileGrep } from "../../src/core/containers/grep.ts";
import { grepLiteral } from "../../src/core/containers/grep-literal.ts";

describe("grepLiteral", () => {
  it.each([
    ["items/4242[0-9] 200", "items/4242"],
    ["panic", "panic"],
    ["connection refused: .*", "connection refused: "],
    ["^ERROR\\[db\\]", "ERROR[db]"],
    ["timeouts?", "timeout"],
    ["abc*def", "def"],
    ["ab{2}cdef", "cdef"],
    ["retry (\\d+) of 5 failed", " of 5 failed"],
    ["x+yzw", "yzw"],
    ["GET \\/api", "GET /api"],
    ["[]abc]defg", "defg"],
    ["[^x\\]]longer", "longer"],
    ["\\bword\\b", "word"],
  ])("%s has %s", (pattern, literal) => {
    expect(grepLiteral(pattern)).toBe(literal);
  });

  it.each([
    ["panic|fatal"],
    ["(?i)panic"],
    ["ab"],
    ["\\x41BCD"],
    ["\\pLabc"],
    ["\\Qa.b\\E"],
    ["(optional)?"],
    ["a.b.c"],
    ["trailing\\"],
  ])("%s has none it can vouch for", (pattern) => {
    expect(grepLiteral(pattern)).toBeUndefined();
  });

  it("never names a literal a match lacks, over generated patterns and lines", () => {
    const alphabet = [
      "a",
      "b",
      "c",
      ".",
      "*",
      "+",
      "?",
      "(",
      ")",
      "[",
      "]",
      "{1,2}",
      "\\.",
      "\\d",
      "^",
      "$",
    ];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let checked = 0;
    for (let round = 0; round < 3000; round++) {
      const pattern = Array.from(
        { length: 3 + random(8) },
        () => alphabet[random(alphabet.length)],
      ).join("");
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern);
      } catch {
        continue;
      }
      const literal = grepLiteral(pattern);
      if (literal === undefined) continue;
      for (let line = 0; line < 40; line++) {
        const text = Array.from({ length: random(12) }, () => "abc.1"[random(5)]).join("");
        if (re.test(text)) {
          expect(text, pattern).toContain(literal);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("is checked first by the compiled test, which answers as RE2 alone", async () => {
    const test = await compileGrep("items/4242[0-9] 200");
    expect(test.literal).toBe("items/4242");
    expect(test("GET /api/items/42421 200 ok")).toBe(true);
    expect(test("GET /api/items/4242 200 ok")).toBe(false);
    expect((await compileGrep("a|b")).literal).toBeUndefined();
  });
});
