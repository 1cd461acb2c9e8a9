import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { createMergedLogsView } from "../../src/cli/render/selection.ts";

/** The colour escape that opens a line's `cluster/name |` prefix. */
const prefixColor = (line: string) => /^\u001b\[[0-9;]*m/.exec(line)?.[0];

describe("merged logs give each container a colour of its own", () => {
  it.each([[1], [2], [3]] as const)("chalk level %d: five containers, five colours", (level) => {
    const colors = new Chalk({ level });
    const view = createMergedLogsView(false);
    const lines = ["a1", "b2", "c3", "d4", "e5"].map((id) =>
      view(
        {
          cluster: { id: 1, name: "alpha" },
          container: { id: `${id}${"0".repeat(62)}`, name: id },
          stream: "stdout",
          time: null,
          text: "x",
        },
        colors,
      ),
    );
    expect(new Set(lines.map(prefixColor)).size).toBe(5);
  });

  it("with 256 colours or more, twenty containers, twenty colours; a container keeps its own", () => {
    for (const level of [2, 3] as const) {
      const colors = new Chalk({ level });
      const view = createMergedLogsView(false);
      const line = (n: number) =>
        view(
          {
            cluster: { id: 1, name: "alpha" },
            container: { id: String(n).padStart(64, "0"), name: `c${n}` },
            stream: "stdout",
            time: null,
            text: "x",
          },
          colors,
        );
      const first = Array.from({ length: 20 }, (_, n) => prefixColor(line(n)));
      expect(new Set(first).size).toBe(20);
      expect(prefixColor(line(7))).toBe(first[7]);
    }
  });
});
