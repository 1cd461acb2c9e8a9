import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startAlerts, type AlertsService } from "../../src/core/alerts/alerts.ts";
import type { Fleet } from "../../src/core/engine/fleet.ts";
import { MemoryEngine, memoryFleet } from "./support/memory-engine.ts";

/**
 * serve's alerting whole (watchers, evaluation, the book, delivery) over an in-memory engine
 * (support/memory-engine.ts) under fake timers: each row a script of what the engine does and
 * when, and what serve logs of its alerts, at the fake time it logs it. The real-engine side is
 * test/integration/alerts.test.ts and alert-*.test.ts.
 */
const T0 = Date.parse("2026-12-07T10:00:00.000Z");
const RULES = {
  receivers: [{ name: "ops", webhook: "http://127.0.0.1:9/ops" }],
  rules: [
    { name: "crashed", when: "exited", cooldown: "1m", notify: ["ops"] },
    { name: "loop", when: "restarting", restarts: 3, window: "1m" },
    { name: "engine", when: "engine-down" },
    { name: "hot", when: "cpu", above: 80, for: "30s" },
    { name: "few", when: "missing", label: "app", min: 2 },
  ],
};

let engine: MemoryEngine;
let fleet: Fleet;
let alerts: AlertsService | undefined;
let logged: string[];
let posted: string[];
beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  vi.spyOn(Math, "random").mockReturnValue(1);
  logged = [];
  posted = [];
  vi.stubGlobal("fetch", (url: string, init: { body: string }) => {
    const body = JSON.parse(init.body) as { alerts: Array<{ rule: string; state: string }> };
    const what = body.alerts.map((alert) => `${alert.rule} ${alert.state}`).join(", ");
    posted.push(`@${Date.now() - T0} ${new URL(url).pathname}: ${what}`);
    return Promise.resolve(new Response(null, { status: 200 }));
  });
  engine = new MemoryEngine();
  const started = new Date(T0).toISOString();
  engine.containers = [
    { id: "a", name: "web", state: "running", startedAt: started, labels: { app: "shop" } },
    { id: "b", name: "web2", state: "running", startedAt: started, labels: { app: "shop" } },
  ];
  fleet = memoryFleet(engine, RULES);
});
afterEach(() => {
  alerts?.close();
  alerts = undefined;
  fleet.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const now = () => new Date(Date.now()).toISOString();
/** Container a exits with `code`. */
const dies = (code: number) =>
  Object.assign(engine.containers[0]!, { state: "exited", exitCode: code, finishedAt: now() });

/**
 * What the engine does at a time (ms after T0). A container's alert fires 15 ms after its event:
 * the rule's lookup of the container waits for the mirror to apply the event (its batch).
 */
type Step = [
  at: number,
  what: "die 3" | "die 0" | "start" | "away" | "back" | "cpu 90" | "cpu 10" | "die unheard",
];
const act: Record<Step[1], () => void> = {
  "die 3": () => {
    dies(3);
    engine.event("die", "a", { exitCode: "3" });
  },
  "die 0": () => engine.event("die", "a", { exitCode: "0" }),
  start: () => {
    Object.assign(engine.containers[0]!, { state: "running", startedAt: now() });
    engine.event("start", "a");
  },
  // It dies while the event stream is cut: no event tells it.
  "die unheard": () => {
    engine.cut();
    dies(3);
  },
  away: () => {
    engine.away = true;
    engine.cut();
  },
  back: () => {
    engine.away = false;
  },
  "cpu 90": () => (engine.containers[0]!.cpu = 90),
  "cpu 10": () => (engine.containers[0]!.cpu = 10),
};

describe("serve's alerts over an in-memory engine", () => {
  it.each<[string, Step[], number, string[]]>([
    [
      "a death with code 3 fires at once; started again, it resolves a cooldown later",
      [
        [1000, "die 3"],
        [2000, "start"],
      ],
      70_000,
      // One of the two of service shop stopped for a second: fewer than the `few` rule's 2.
      [
        "@1015 firing crashed alpha/web",
        "@2000 firing few",
        "@3000 resolved few",
        "@62000 resolved crashed alpha/web",
      ],
    ],
    [
      // The evaluation after the gap finds it, dated when it died.
      "a death no event told is found when the stream is back",
      [[1000, "die unheard"]],
      5000,
      // The dropped stream is an engine-down until it is back (docs/guide/alerts.md).
      [
        "@1000 firing engine alpha",
        "@1250 resolved engine alpha",
        "@1250 firing crashed alpha/web",
        "@2250 firing few",
      ],
    ],
    ["a death with code 0 fires nothing", [[1000, "die 0"]], 70_000, []],
    [
      "flapping within the cooldown is one alert, resolved a cooldown after its last end",
      [
        [1000, "die 3"],
        [2000, "start"],
        [30_000, "die 3"],
        [40_000, "start"],
      ],
      200_000,
      [
        "@1015 firing crashed alpha/web",
        "@2000 firing few",
        "@3000 resolved few",
        "@31000 firing few",
        "@41000 resolved few",
        "@100000 resolved crashed alpha/web",
      ],
    ],
    [
      "three deaths within the window are a restart loop",
      [
        [1000, "die 0"],
        [2000, "die 0"],
        [3000, "die 0"],
      ],
      10_000,
      ["@3015 firing loop alpha/web"],
    ],
    [
      "three deaths spread wider than the window are not",
      [
        [1000, "die 0"],
        [40_000, "die 0"],
        [80_000, "die 0"],
      ],
      90_000,
      [],
    ],
    [
      // Its stream is tried again 250, 500, 1000, 2000, 4000 ms apart: the one at 8,750 finds it.
      "an engine away fires engine-down; back, it resolves",
      [
        [1000, "away"],
        [5000, "back"],
      ],
      20_000,
      ["@1000 firing engine alpha", "@8750 resolved engine alpha"],
    ],
    [
      // Sampled every 10 s (a third of its `for`): above from the sample at 10 s, for 30 s at 40 s.
      "a cpu above the rule's threshold for its whole `for` fires; back under it, resolves",
      [
        [5000, "cpu 90"],
        [45_000, "cpu 10"],
      ],
      60_000,
      ["@40000 firing hot alpha/web", "@50000 resolved hot alpha/web"],
    ],
    [
      "a cpu above for less than its `for` fires nothing",
      [
        [5000, "cpu 90"],
        [25_000, "cpu 10"],
      ],
      60_000,
      [],
    ],
  ])("%s", async (_, script, until, told) => {
    alerts = startAlerts({
      fleet,
      log: (line) => {
        const [, state, rest] = /^alert (\w+): ([^:]+)/.exec(line) ?? [];
        if (state) logged.push(`@${Date.now() - T0} ${state} ${rest}`);
      },
    });
    // The rules' clusters are watched: their mirrors listed, their streams open.
    await vi.advanceTimersByTimeAsync(100);
    for (const [at, step] of script) {
      await vi.advanceTimersByTimeAsync(T0 + at - Date.now());
      act[step]();
    }
    await vi.advanceTimersByTimeAsync(T0 + until - Date.now());
    expect(logged).toEqual(told);
  });

  it("tells the receivers of a rule, one request per change a group wait after it", async () => {
    alerts = startAlerts({ fleet });
    await vi.advanceTimersByTimeAsync(100);
    engine.event("die", "a", { exitCode: "3" });
    await vi.advanceTimersByTimeAsync(2000);
    engine.event("start", "a");
    await vi.advanceTimersByTimeAsync(70_000);
    // Fired at 115, sent a group wait later; resolved at the first tick after its cooldown
    // (62,100), sent a group wait later.
    expect(posted).toEqual(["@215 /ops: crashed firing", "@63100 /ops: crashed resolved"]);
    expect(alerts.list().map((alert) => alert.state)).toEqual(["resolved"]);
  });
});
