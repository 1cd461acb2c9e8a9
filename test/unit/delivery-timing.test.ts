import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Alert, AlertNotice } from "../../src/core/alerts/alert-book.ts";
import {
  createDelivery,
  type Delivery,
  type DeliveryOptions,
} from "../../src/core/alerts/delivery.ts";

const T0 = Date.parse("2026-12-07T10:00:00.000Z");

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
      id: `${rule}-${container}`,
      rule,
      when: "exited",
      state: "firing",
      cluster: { id: 1, name: "alpha" },
      container: { id: container, name: container },
      cause: "exited with code 3",
      startsAt: "",
      link: "/#/",
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
