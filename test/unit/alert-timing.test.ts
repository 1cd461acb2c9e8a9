import { describe, expect, it } from "vitest";
import {
  AlertBook,
  alertId,
  type AlertCondition,
  type AlertTiming,
} from "../../src/core/alerts/alert-book.ts";

/**
 * The alert book's timing, in-process: it is told the time (`now`), so each row is a script of
 * what a rule saw and when, and what the receivers are told. The real-engine side of the same
 * rules is test/integration/alert-*.test.ts.
 */
const T0 = Date.parse("2026-12-07T10:00:00.000Z");
const condition = (container = "c1"): AlertCondition => ({
  rule: "crashed",
  when: "exited",
  cluster: { id: 1, name: "alpha" },
  container: { id: container, name: container },
  cause: "exited with code 3",
  link: "/#/",
});

/** A step at `at` ms after T0: the condition seen, ended, or a tick of the book. */
type Step = [at: number, what: "fire" | "resolve" | "tick", container?: string];

/** Runs `steps` on a book and returns what it told: `state container @ms (endsAt ms)`. */
function run(timing: AlertTiming, steps: Step[], book = new AlertBook()): string[] {
  const told: string[] = [];
  for (const [at, what, container = "c1"] of steps) {
    const now = T0 + at;
    const notices =
      what === "fire"
        ? [book.fire(condition(container), timing, now)]
        : what === "resolve"
          ? [book.resolve(alertId(condition(container)), now)]
          : book.tick(now);
    for (const notice of notices) {
      if (!notice) continue;
      const { state, container: of, endsAt } = notice.alert;
      const ended = endsAt ? ` ended ${Date.parse(endsAt) - T0}` : "";
      told.push(`${state} ${of!.id} @${at}${ended}`);
    }
  }
  return told;
}

describe("the alert book's timing (cooldown, resolve-after, a burst, flapping)", () => {
  it.each<[string, AlertTiming, Step[], string[]]>([
    [
      "fires once for a burst",
      { cooldownMs: 0 },
      [
        [0, "fire"],
        [5, "fire"],
        [9, "fire"],
      ],
      ["firing c1 @0"],
    ],
    [
      "resolves at once without a cooldown",
      { cooldownMs: 0 },
      [
        [0, "fire"],
        [100, "resolve"],
      ],
      ["firing c1 @0", "resolved c1 @100 ended 100"],
    ],
    [
      "tells the end only once the cooldown is over, dated when the condition ended",
      { cooldownMs: 60_000 },
      [
        [0, "fire"],
        [1000, "resolve"],
        [60_999, "tick"],
        [61_000, "tick"],
        [62_000, "tick"],
      ],
      ["firing c1 @0", "resolved c1 @61000 ended 1000"],
    ],
    [
      "keeps a flapping alert firing, unsaid, when it comes back within the cooldown",
      { cooldownMs: 60_000 },
      [
        [0, "fire"],
        [1000, "resolve"],
        [30_000, "fire"],
        [61_000, "tick"],
        [200_000, "tick"],
      ],
      ["firing c1 @0"],
    ],
    [
      "a second resolve within the cooldown does not move its end",
      { cooldownMs: 10_000 },
      [
        [0, "fire"],
        [1000, "resolve"],
        [5000, "resolve"],
        [11_000, "tick"],
      ],
      ["firing c1 @0", "resolved c1 @11000 ended 1000"],
    ],
    [
      "fires anew once resolved: a new notice",
      { cooldownMs: 1000 },
      [
        [0, "fire"],
        [0, "resolve"],
        [1000, "tick"],
        [5000, "fire"],
      ],
      ["firing c1 @0", "resolved c1 @1000 ended 0", "firing c1 @5000"],
    ],
    [
      "ends by itself when not seen again for resolve-after (a log rule)",
      { cooldownMs: 0, resolveAfterMs: 300_000 },
      [
        [0, "fire"],
        [299_999, "tick"],
        [300_000, "tick"],
      ],
      ["firing c1 @0", "resolved c1 @300000 ended 300000"],
    ],
    [
      "each line seen again moves resolve-after on",
      { cooldownMs: 0, resolveAfterMs: 300_000 },
      [
        [0, "fire"],
        [200_000, "fire"],
        [300_000, "tick"],
        [499_999, "tick"],
        [500_000, "tick"],
      ],
      ["firing c1 @0", "resolved c1 @500000 ended 500000"],
    ],
    [
      "resolve-after then the cooldown: dated when it went quiet, told a cooldown later",
      { cooldownMs: 60_000, resolveAfterMs: 120_000 },
      [
        [0, "fire"],
        [120_000, "tick"],
        [179_999, "tick"],
        [180_000, "tick"],
      ],
      ["firing c1 @0", "resolved c1 @180000 ended 120000"],
    ],
    [
      "alerts of two containers keep their own time",
      { cooldownMs: 10_000 },
      [
        [0, "fire", "a"],
        [0, "fire", "b"],
        [1000, "resolve", "a"],
        [6000, "resolve", "b"],
        [11_000, "tick"],
        [16_000, "tick"],
      ],
      [
        "firing a @0",
        "firing b @0",
        "resolved a @11000 ended 1000",
        "resolved b @16000 ended 6000",
      ],
    ],
  ])("%s", (_, timing, steps, told) => {
    expect(run(timing, steps)).toEqual(told);
  });

  it("says when its next tick has something to do", () => {
    const book = new AlertBook();
    expect(book.nextDue()).toBeUndefined();
    book.fire(condition(), { cooldownMs: 5000, resolveAfterMs: 60_000 }, T0);
    expect(book.nextDue()).toBe(T0 + 60_000);
    book.resolve(alertId(condition()), T0 + 1000);
    expect(book.nextDue()).toBe(T0 + 6000);
  });

  it("keeps resolved alerts an hour (or up to its bound), then forgets them", () => {
    const book = new AlertBook(3_600_000, 2);
    run(
      { cooldownMs: 0 },
      [
        [0, "fire", "a"],
        [0, "fire", "b"],
        [0, "fire", "c"],
      ],
      book,
    );
    run(
      { cooldownMs: 0 },
      [
        [10, "resolve", "a"],
        [20, "resolve", "b"],
        [30, "resolve", "c"],
        [40, "tick"],
      ],
      book,
    );
    // Three resolved, two kept: the oldest end goes.
    expect(book.list().map((alert) => alert.container!.id)).toEqual(["b", "c"]);
    book.tick(T0 + 20 + 3_600_000);
    expect(book.list().map((alert) => alert.container!.id)).toEqual(["c"]);
  });
});
