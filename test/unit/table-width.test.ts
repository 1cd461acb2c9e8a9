import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { displayWidth, renderTable } from "../../src/cli/render/format.ts";

describe("displayWidth: the columns a terminal draws", () => {
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
});
