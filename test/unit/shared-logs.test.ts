import { describe, expect, it } from "vitest";
import type { OutputLine } from "../../src/core/containers/container-output.ts";
import { joinLogs } from "../../src/core/containers/shared-logs.ts";

/** A line at second `s` past 12:00:00 with nanoseconds `n`, as the engine stamps it. */
const at = (
  text: string,
  s: number,
  n = 0,
  stream: OutputLine["stream"] = "stdout",
): OutputLine => ({
  stream,
  time: `2026-11-26T12:00:${String(s).padStart(2, "0")}.${String(n).padStart(9, "0")}Z`,
  text,
});
const err = (text: string, s: number, n = 0) => at(text, s, n, "stderr");

async function joined(
  history: OutputLine[],
  live: OutputLine[],
  query: Partial<Parameters<typeof joinLogs>[2]> = {},
): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of joinLogs(history, live, { stream: "both", timestamps: true, ...query }))
    lines.push(
      `${line.stream === "stderr" ? "!" : ""}${line.text}${line.time ? "" : " (no time)"}`,
    );
  return lines;
}

/**
 * A follower's own history, then the shared live lines it does not hold (issue 25 item 3): the
 * live stream was joined before the history was read, so the two overlap where they meet.
 */
describe("joining a follower's history to the shared live lines", () => {
  it.each([
    ["no overlap", [at("1", 1), at("2", 2)], [at("3", 3)], {}, ["1", "2", "3"]],
    [
      "overlap said once",
      [at("1", 1), at("2", 2), at("3", 3)],
      [at("2", 2), at("3", 3), at("4", 4)],
      {},
      ["1", "2", "3", "4"],
    ],
    ["no history (tail=0)", [], [at("3", 3), at("4", 4)], {}, ["3", "4"]],
    [
      "two lines of one nanosecond, one of them in the history",
      [at("1", 1), at("a", 2, 5)],
      [at("a", 2, 5), at("b", 2, 5), at("c", 3)],
      {},
      ["1", "a", "b", "c"],
    ],
    [
      "the same text twice at one time, once in the history",
      [at("x", 2)],
      [at("x", 2), at("x", 2)],
      {},
      ["x", "x"],
    ],
    [
      "each stream's own end: stderr stamped a little before the last stdout line is new",
      [at("1", 1), err("e1", 1, 1), at("2", 2, 500)],
      [err("e1", 1, 1), err("e2", 2, 400), at("2", 2, 500), at("3", 3)],
      {},
      ["1", "!e1", "2", "!e2", "3"],
    ],
    [
      "a stream with no history line is joined at the history's end",
      [at("1", 1), at("2", 2)],
      [err("old", 1, 5), err("new", 2, 1)],
      {},
      ["1", "2", "!new"],
    ],
    ["stdout only", [at("1", 1)], [err("e", 2), at("2", 2)], { stream: "stdout" }, ["1", "2"]],
    [
      "since applies to the live lines too (tail=0)",
      [],
      [at("early", 1), at("late", 5)],
      { since: Date.parse("2026-11-26T12:00:03Z") / 1000 },
      ["late"],
    ],
    [
      "times only when asked for",
      [at("1", 1)],
      [at("2", 2)],
      { timestamps: false },
      ["1 (no time)", "2 (no time)"],
    ],
    [
      "lines without a time are never taken for repeats",
      [{ stream: "stdout", time: null, text: "a" }],
      [{ stream: "stdout", time: null, text: "a" }],
      {},
      ["a (no time)", "a (no time)"],
    ],
  ] as const)("%s", async (_, history, live, query, expected) => {
    expect(await joined([...history], [...live], query)).toEqual(expected);
  });

  it("tells the follower left when it stops early", async () => {
    let left = 0;
    const lines = joinLogs(
      [at("1", 1), at("2", 2)],
      [],
      { stream: "both", timestamps: true },
      () => left++,
    );
    await lines.next();
    await lines.return(undefined);
    expect(left).toBe(1);
  });
});
