import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AlertBook,
  type Alert,
  type AlertNotice,
  alertId,
  type AlertCondition,
  type AlertTiming,
} from "../../src/core/alerts/alert-book.ts";
import {
  createDelivery,
  type Delivery,
  type DeliveryOptions,
} from "../../src/core/alerts/delivery.ts";

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

/**
 * Delivery's timing under vitest's fake timers (which fake `Date` too), its receivers an
 * in-memory `fetch`: each request is recorded at the fake time it went, and answered with the
 * status the row's receiver gives then. The loopback-receiver side is alert-delivery.test.ts.
 */
describe("delivery's timing (group wait, group interval, backoff)", () => {
  let delivery: Delivery | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
    // Jitter drawn at its top: each wait is the whole backoff step.
    vi.spyOn(Math, "random").mockReturnValue(1);
  });
  afterEach(() => {
    delivery?.close();
    delivery = undefined;
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  /** Receivers `names` behind an in-memory fetch; `status(name, at)` answers each request. */
  function receivers(names: string[], status: (name: string, at: number) => number = () => 200) {
    const requests: string[] = [];
    vi.stubGlobal("fetch", (url: string, init: { body: string }) => {
      const name = new URL(url).pathname.slice(1);
      const at = Date.now() - T0;
      const code = status(name, at);
      const alerts = (JSON.parse(init.body) as { alerts: Alert[] }).alerts;
      requests.push(`${name} @${at} ${code}: ${alerts.map((alert) => alert.id).join(",")}`);
      return Promise.resolve(new Response(null, { status: code }));
    });
    const hooks = names.map((name) => ({
      name,
      kind: "webhook" as const,
      target: "",
      url: `http://127.0.0.1:9/${name}`,
    }));
    return { hooks, requests };
  }
  const notice = (rule: string, container: string): AlertNotice => ({
    alert: {
      ...condition(container),
      rule,
      id: `${rule}-${container}`,
      state: "firing",
      startsAt: "",
    },
  });
  /** At `at` ms: send `notices` (rule-container) to `to`. */
  type Send = [at: number, to: string[], notices: string[]];
  async function play(sends: Send[], until: number): Promise<void> {
    for (const [at, to, notices] of sends) {
      await vi.advanceTimersByTimeAsync(T0 + at - Date.now());
      delivery!.send(
        to,
        notices.map((one) => notice(...(one.split("-") as [string, string]))),
      );
    }
    await vi.advanceTimersByTimeAsync(T0 + until - Date.now());
  }

  it.each<[string, DeliveryOptions, Send[], number, string[]]>([
    [
      "gathers a rule's first notices for the group wait, then sends them as one request",
      { groupWaitMs: 100 },
      [
        [0, ["a"], ["crashed-x"]],
        [50, ["a"], ["crashed-y"]],
        [99, ["a"], ["crashed-z"]],
      ],
      1000,
      ["a @100 200: crashed-x,crashed-y,crashed-z"],
    ],
    [
      "sends what follows once per group interval",
      { groupWaitMs: 100, groupIntervalMs: 10_000 },
      [
        [0, ["a"], ["crashed-x"]],
        [200, ["a"], ["crashed-y"]],
        [9000, ["a"], ["crashed-z"]],
      ],
      30_000,
      ["a @100 200: crashed-x", "a @10100 200: crashed-y,crashed-z"],
    ],
    [
      "after a quiet interval, the next notice waits only the group wait",
      { groupWaitMs: 100, groupIntervalMs: 10_000 },
      [
        [0, ["a"], ["crashed-x"]],
        [20_000, ["a"], ["crashed-y"]],
      ],
      30_000,
      ["a @100 200: crashed-x", "a @20100 200: crashed-y"],
    ],
    [
      "two rules are two groups, each on its own interval",
      { groupWaitMs: 100, groupIntervalMs: (rule) => (rule === "sick" ? 1000 : 10_000) },
      [
        [0, ["a"], ["crashed-x", "sick-x"]],
        [200, ["a"], ["crashed-y", "sick-y"]],
      ],
      20_000,
      [
        "a @100 200: crashed-x",
        "a @100 200: sick-x",
        "a @1100 200: sick-y",
        "a @10100 200: crashed-y",
      ],
    ],
  ])("%s", async (_, options, sends, until, told) => {
    const { hooks, requests } = receivers(["a"]);
    delivery = createDelivery(hooks, options);
    await play(sends, until);
    expect(requests).toEqual(told);
  });

  it("tries a failing receiver again after doubling waits up to the last, and starts over once it answers", async () => {
    // Down until 20 s in.
    const { hooks, requests } = receivers(["a"], (_, at) => (at < 20_000 ? 503 : 200));
    const failures: number[] = [];
    delivery = createDelivery(hooks, {
      groupWaitMs: 100,
      groupIntervalMs: 0,
      backoffMs: [1000, 8000],
      onFailure: (_, __, retryInMs) => failures.push(retryInMs),
    });
    await play([[0, ["a"], ["crashed-x"]]], 30_000);
    expect(requests.map((line) => line.split(":")[0])).toEqual([
      "a @100 503",
      "a @1100 503",
      "a @3100 503",
      "a @7100 503",
      "a @15100 503",
      "a @23100 200",
    ]);
    expect(failures).toEqual([1000, 2000, 4000, 8000, 8000]);
    // Answered: the next failure waits the first step again.
    const before = requests.length;
    await play([[30_000, ["a"], ["crashed-y"]]], 40_000);
    expect(requests.slice(before)).toEqual(["a @30100 200: crashed-y"]);
    expect(delivery.counts()).toEqual([
      { receiver: "a", result: "failure", count: 5 },
      { receiver: "a", result: "success", count: 2 },
    ]);
  });

  it("a failing receiver holds only its own queue", async () => {
    const { hooks, requests } = receivers(["down", "up"], (name) => (name === "down" ? 503 : 200));
    delivery = createDelivery(hooks, {
      groupWaitMs: 100,
      groupIntervalMs: 0,
      backoffMs: [1000, 1000],
    });
    await play(
      [
        [0, ["down", "up"], ["crashed-x"]],
        [500, ["down", "up"], ["crashed-y"]],
      ],
      2500,
    );
    expect(requests).toEqual([
      "down @100 503: crashed-x",
      "up @100 200: crashed-x",
      "up @600 200: crashed-y",
      "down @1100 503: crashed-x,crashed-y",
      "down @2100 503: crashed-x,crashed-y",
    ]);
  });
});
