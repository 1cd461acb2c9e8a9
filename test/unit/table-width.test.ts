import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { renderTable } from "../../src/cli/render/format.ts";
import { displayWidth } from "../support/display-width.ts";

describe("displayWidth: the columns a terminal draws (the tests' own measure)", () => {
  it.each([
    ["alpha", 5],
    ["🐳 alpha", 8],
    ["🦭 podman", 9],
    ["👩‍💻", 2],
    ["🇫🇷", 2],
    ["e\u0301", 1],
    ["漢字", 4],
    ["\u001b[1mbold\u001b[22m", 4],
  ])("%j is %d wide", (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe("renderTable", () => {
  it("aligns the columns after an emoji of any Unicode version, colours aside", () => {
    const colors = new Chalk({ level: 1 });
    const table = renderTable(
      ["ID", "CLUSTER", "STATE"],
      [
        ["1", "🐳 alpha", colors.green("up")],
        ["2", "🦭 podman", colors.red("ENGINE_UNREACHABLE")],
        ["3", "bravo", "up"],
      ],
      colors,
    );
    const plain = table.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
    const stateAt = (line: string) => displayWidth(line.slice(0, line.search(/(up|ENGINE|STATE)/)));
    expect(plain.map(stateAt)).toEqual([17, 17, 17, 17]);
    expect(plain[0]).toBe("ID   CLUSTER     STATE");
  });

  it.each([["👩‍💻"], ["🇫🇷"], ["漢字"], ["e\u0301"]])(
    "pads after %j as a terminal draws it",
    (text) => {
      const rows = [
        [text, "x"],
        ["y", "x"],
      ];
      const lines = renderTable(["A", "B"], rows, new Chalk({ level: 0 })).split("\n");
      const columnOfB = lines.map((line) => displayWidth(line.slice(0, line.search(/[Bx]$/))));
      expect(new Set(columnOfB).size).toBe(1);
    },
  );
});
