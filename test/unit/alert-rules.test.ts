import { describe, expect, it } from "vitest";
import { AlertBook, type AlertCondition } from "../../src/core/alerts/alert-book.ts";
import { eventVerdict, listedVerdict } from "../../src/core/alerts/state-triggers.ts";
import { ruleClusters, scopeOf } from "../../src/core/alerts/rule-scope.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { createFleet } from "../../src/core/engine/fleet.ts";

const condition: AlertCondition = {
  rule: "crashed",
  when: "exited",
  cluster: { id: 1, name: "alpha" },
  container: { id: "c1", name: "web" },
  cause: "exited with code 3",
  value: 3,
  link: "/#/",
};

type Step = [at: number, op: "fire" | "resolve" | "tick", told?: "firing" | "resolved"];

describe("the alert state machine", () => {
  const cases: Array<[string, { cooldownMs: number; resolveAfterMs?: number }, Step[]]> = [
    [
      "fires once and resolves once",
      { cooldownMs: 0 },
      [
        [0, "fire", "firing"],
        [1, "fire"],
        [2, "fire"],
        [3, "resolve", "resolved"],
        [4, "resolve"],
        [5, "tick"],
      ],
    ],
    [
      "a burst of 1,000 is one notice",
      { cooldownMs: 0 },
      [
        ...Array.from({ length: 1000 }, (_, i): Step => [
          i,
          "fire",
          i === 0 ? "firing" : undefined,
        ]),
      ],
    ],
    [
      "a condition back within the cooldown keeps the alert, unsaid",
      { cooldownMs: 100 },
      [
        [0, "fire", "firing"],
        [10, "resolve"],
        [50, "fire"],
        [60, "resolve"],
        [100, "tick"],
        [160, "tick", "resolved"],
      ],
    ],
    [
      "fires again after a resolved notice",
      { cooldownMs: 10 },
      [
        [0, "fire", "firing"],
        [5, "resolve"],
        [15, "tick", "resolved"],
        [20, "fire", "firing"],
      ],
    ],
    [
      "a quiet alert ends by itself (log lines)",
      { cooldownMs: 0, resolveAfterMs: 100 },
      [
        [0, "fire", "firing"],
        [50, "fire"],
        [140, "tick"],
        [150, "tick", "resolved"],
        [200, "tick"],
      ],
    ],
  ];
  it.each(cases)("%s", (_, timing, steps) => {
    const book = new AlertBook();
    let id = "";
    for (const [at, op, told] of steps) {
      const notices =
        op === "fire"
          ? [book.fire(condition, timing, at)]
          : op === "resolve"
            ? [book.resolve(id, at)]
            : book.tick(at);
      const said = notices.filter((notice) => notice !== undefined);
      expect(
        said.map((notice) => notice.alert.state),
        `at ${at} ${op}`,
      ).toEqual(told ? [told] : []);
      id = said[0]?.alert.id ?? id;
    }
  });

  it("resolves one alert at a time, leaving the others due to the tick that tells them", () => {
    const book = new AlertBook();
    const other = { ...condition, container: { id: "c2", name: "api" } };
    const held = book.fire(condition, { cooldownMs: 100 }, 0)!.alert.id;
    const quick = book.fire(other, { cooldownMs: 0 }, 0)!.alert.id;
    expect(book.resolve(held, 10)).toBeUndefined();
    expect(book.resolve(quick, 200)?.alert).toMatchObject({ id: quick, state: "resolved" });
    expect(book.tick(200).map((notice) => notice.alert.id)).toEqual([held]);
  });

  it("keeps the id of an alert stable, and its times", () => {
    const book = new AlertBook();
    const first = book.fire(condition, { cooldownMs: 0 }, Date.parse("2026-01-01T00:00:00Z"))!;
    const ended = book.resolve(first.alert.id, Date.parse("2026-01-01T00:01:00Z"))!;
    expect(ended.alert).toMatchObject({
      id: first.alert.id,
      state: "resolved",
      startsAt: "2026-01-01T00:00:00.000Z",
      endsAt: "2026-01-01T00:01:00.000Z",
    });
    expect(book.fire(condition, { cooldownMs: 0 }, Date.now())!.alert.id).toBe(first.alert.id);
  });
});

describe("what an engine event means for a rule", () => {
  it.each([
    ["exited", "die", { exitCode: "3" }, { fire: { cause: "exited with code 3", value: 3 } }],
    ["exited", "die", { exitCode: "0" }, { resolve: true }],
    ["exited", "start", {}, { resolve: true }],
    ["exited", "destroy", {}, { resolve: true }],
    ["exited", "pause", {}, undefined],
    ["oom", "oom", {}, { fire: { cause: "killed: out of memory" } }],
    ["oom", "start", {}, { resolve: true }],
    ["unhealthy", "health_status: unhealthy", {}, { fire: { cause: "health check failing" } }],
    [
      "unhealthy",
      "health_status",
      { health_status: "unhealthy" },
      { fire: { cause: "health check failing" } },
    ],
    ["unhealthy", "health_status: healthy", {}, { resolve: true }],
    ["unhealthy", "health_status: starting", {}, undefined],
    ["unhealthy", "die", {}, { resolve: true }],
    ["restarting", "die", { exitCode: "1" }, { died: true }],
    ["restarting", "destroy", {}, { resolve: true }],
  ] as const)("%s on %s %o", (when, action, attributes, verdict) => {
    expect(eventVerdict(when, action, attributes)).toEqual(verdict);
  });

  it.each([
    [
      "exited",
      { State: "exited", Status: "Exited (3) 2 minutes ago" },
      { cause: "exited with code 3", value: 3 },
    ],
    ["exited", { State: "exited", Status: "Exited (0) 2 minutes ago" }, undefined],
    ["exited", { State: "running", Status: "Up 2 minutes" }, undefined],
    [
      "unhealthy",
      { State: "running", Status: "Up 2 minutes (unhealthy)" },
      { cause: "health check failing" },
    ],
    ["unhealthy", { State: "running", Status: "Up 2 minutes (healthy)" }, undefined],
    [
      "restarting",
      { State: "restarting", Status: "Restarting (1) 1 second ago" },
      { cause: "restarting" },
    ],
  ] as const)("a listed %s: %o", (when, item, verdict) => {
    expect(listedVerdict(when, item)).toEqual(verdict);
  });
});

describe("the alerts config", () => {
  const config = (alerts: unknown) => () =>
    normalizeConfig({ clusters: [{ name: "a", host: "unix:///x.sock" }], alerts }, "f.yaml");
  it.each([
    [
      { rules: [{ name: "crashed", when: "exit" }] },
      /alerts\.rules\[0\] \("crashed"\)\.when: expected one of exited/,
    ],
    [
      { rules: [{ name: "panics", when: "log" }] },
      /alerts\.rules\[0\] \("panics"\)\.grep: required/,
    ],
    [
      { rules: [{ name: "hot", when: "cpu", above: 90, for: "soon" }] },
      /\("hot"\)\.for: expected a duration/,
    ],
    [
      { rules: [{ name: "x", when: "exited", notify: ["ops"] }] },
      /\("x"\)\.notify\[0\]: no receiver "ops"/,
    ],
    [
      { rules: [{ name: "x", when: "exited", grpe: "a" }] },
      /\("x"\): unknown key "grpe" \(did you mean "grep"\?\)/,
    ],
    [
      { rules: [{ name: "x", when: "exited", cluster: ["a", "../b"] }] },
      /\("x"\)\.cluster\[1\]: expected a cluster name or id, or a glob of names with \* and \?/,
    ],
    [
      { receivers: [{ name: "ops", webhook: "ftp://x" }] },
      /alerts\.receivers\[0\]\.webhook: expected an http:\/\/ or https:\/\/ URL/,
    ],
    [
      { receivers: [{ name: "ops", webhook: "http://x", slack: "http://y" }] },
      /receivers\[0\]: expected exactly one of/,
    ],
  ])("%j", (alerts, message) => {
    expect(config(alerts)).toThrow(message);
  });

  it.each([
    [
      { name: "x", when: "exited", filter: ["colour=red"] },
      /^alerts rule "x": filter: unknown filter "colour"/,
    ],
    [
      { name: "x", when: "exited", cluster: "nowhere" },
      /^alerts rule "x": cluster "nowhere" not found/,
    ],
    [
      { name: "x", when: "exited", cluster: "edge.alpha" },
      /^alerts rule "x": cluster "edge.alpha" not found/,
    ],
    [
      { name: "x", when: "exited", cluster: ["a", "z*"] },
      /^alerts rule "x": cluster "z\*" matches no cluster \(known: 1 a\)/,
    ],
  ])("checks what the engines' terms say when the rules start: %j", (rule, message) => {
    const { alerts, ...loaded } = config({ rules: [rule] })();
    const fleet = createFleet({ ...loaded, alerts });
    expect(() => scopeOf(alerts!.rules[0]!, { fleet })).toThrow(message);
  });

  it("takes globs and a node's clusters, found again as the fleet's clusters change", () => {
    const { alerts, ...loaded } = normalizeConfig(
      {
        clusters: [
          { name: "alpha", host: "unix:///a.sock" },
          { name: "bravo", host: "unix:///b.sock" },
        ],
        nodes: [{ name: "edge", url: "http://127.0.0.1:9", token: { env: "T" } }],
        alerts: {
          rules: [
            { name: "edges", when: "exited", cluster: "edge.*" },
            { name: "one", when: "exited", cluster: ["edge.alpha", "b*"] },
            { name: "all", when: "exited" },
          ],
        },
      },
      "f.yaml",
    );
    const fleet = createFleet({ ...loaded, alerts });
    const [edges, one, all] = alerts!.rules.map((rule) => scopeOf(rule, { fleet }));
    const names = (clusters: Array<{ name: string }>) => clusters.map((cluster) => cluster.name);
    expect(names(edges!.clusters)).toEqual([]);
    expect(names(one!.clusters)).toEqual(["bravo"]);
    const [alpha, bravo] = fleet.config.clusters;
    fleet.config.clusters = [
      alpha!,
      bravo!,
      { ...alpha!, id: 3, name: "edge.alpha" },
      { ...alpha!, id: 4, name: "edge.bravo" },
    ];
    expect(names(ruleClusters(edges!.rule, { fleet }))).toEqual(["edge.alpha", "edge.bravo"]);
    expect(names(ruleClusters(one!.rule, { fleet }))).toEqual(["bravo", "edge.alpha"]);
    expect(names(ruleClusters(all!.rule, { fleet }))).toHaveLength(4);
  });

  it("applies the defaults", () => {
    const { alerts } = config({
      receivers: [
        { name: "ops", webhook: "http://127.0.0.1:9/hook" },
        { name: "chat", slack: { env: "SLACK" } },
      ],
      rules: [{ name: "crashed", when: "exited", project: "shop" }],
    })();
    expect(alerts?.rules[0]).toMatchObject({
      notify: ["ops", "chat"],
      // Resolved at once, as Alertmanager tells it; one notice per rule every 10 s at most.
      cooldownMs: 0,
      groupIntervalMs: 10_000,
      clusters: [],
    });
    expect(alerts?.receivers[1]).toEqual({ name: "chat", kind: "slack", target: { env: "SLACK" } });
  });
});
