import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlerts, type AlertsService } from "../../src/core/alerts/alerts.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { until } from "../support/until.ts";
import { startHook, type Hook } from "./alert-receivers.ts";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { BIN, cli, docker, engines, withContainer, writeConfig } from "./helpers.ts";

/** Alerts only a fleet tool has (drift, missing), log, cpu and memory rules, the chat receivers, `docklens alerts`. */
const LABEL = "docklens-test=alerts-fleet";
const SERVICE = "docklens-alerts-service";
const IMAGE = "local/busybox:1";
/** Only the busy container of the cpu test carries it: the cpu rule samples nothing else. */
const BUSY = "docklens-test-busy=1";
let hook: Hook;
let slack: Hook;
let discord: Hook;
let ntfy: Hook;
let fleet: Fleet;
let service: AlertsService;

const clusters = () => [
  { name: "alpha", host: engines.hostA },
  { id: 7, name: "bravo", host: engines.hostB },
];

beforeAll(async () => {
  [hook, slack, discord, ntfy] = await Promise.all([
    startHook(),
    startHook(),
    startHook(),
    startHook(),
  ]);
  const path = await writeConfig("alert-fleet.json", {
    clusters: clusters(),
    alerts: {
      receivers: [
        { name: "hook", webhook: hook.url },
        { name: "slack", slack: slack.url },
        { name: "discord", discord: discord.url },
        { name: "ntfy", ntfy: ntfy.url },
      ],
      rules: [
        {
          name: "panics",
          when: "log",
          grep: "PANIC|FATAL",
          filter: [`label=${LABEL}`],
          // Ended by 5 s without a matching line: the burst test waits for that, not for a time.
          resolveAfter: "5s",
        },
        { name: "drifted", when: "drift", notify: ["hook"] },
        {
          name: "absent",
          when: "missing",
          label: SERVICE,
          filter: [`label=${LABEL}`],
          notify: ["hook"],
          cooldown: "0s",
        },
        {
          name: "fat",
          when: "memory",
          above: 1,
          for: "1s",
          filter: [`label=${LABEL}`],
          notify: ["hook"],
        },
        {
          name: "busy",
          when: "cpu",
          above: 2,
          for: "2s",
          filter: [`label=${LABEL}`, `label=${BUSY}`],
          notify: ["hook"],
          cooldown: "0s", // The resolved notice at once, not a minute after the end.
        },
      ],
    },
  });
  fleet = await loadFleet({ configPath: path, live: true });
  const delivery = { groupWaitMs: 50, groupIntervalMs: 0 };
  service = startAlerts({ fleet, url: "http://docklens.test", delivery });
});

afterAll(async () => {
  service?.close();
  fleet?.close();
  await Promise.all([hook, slack, discord, ntfy].map((one) => one?.close()));
  for (const host of [engines.hostA, engines.hostB]) {
    const ids = await docker(host, "ps", "-aq", "--filter", `label=${LABEL}`);
    if (ids) await docker(host, "rm", "-f", ...ids.split("\n"));
  }
});

const of = (rule: string) => hook.alerts().filter((alert) => alert.rule === rule);

describe("log rules", () => {
  it("a burst of 1,000 matching lines is one notification, at every receiver", async () => {
    await docker(
      engines.hostA,
      "run",
      "-d",
      "--name",
      "al-chatty",
      "-l",
      LABEL,
      "-l",
      `${SERVICE}=chatty`,
      "--memory",
      "16m",
      IMAGE,
      "sh",
      "-c",
      'sleep 2; i=0; while [ $i -lt 1000 ]; do echo "PANIC $i"; i=$((i+1)); done; sleep 100000',
    );
    // Resolved once the rule has read no matching line for its 5 s: the whole burst was read, and
    // any notice a line of it made has been sent by then (the group wait is 50 ms).
    const resolved = await until(
      () => of("panics").find((alert) => alert.state === "resolved"),
      60_000,
    );
    expect(resolved).toBeTruthy();
    const panics = of("panics");
    expect(panics.map((alert) => alert.state)).toEqual(["firing", "resolved"]);
    expect(panics[1].id).toBe(panics[0].id);
    expect(panics[0]).toMatchObject({
      container: { name: "al-chatty" },
      cause: expect.stringMatching(/^PANIC \d+$/),
      // By the container's id, with the name it had: a replacement under its name is another.
      link: expect.stringMatching(
        /^http:\/\/docklens\.test\/#\/cluster\/alpha\/container\/[0-9a-f]{64}\?name=al-chatty$/,
      ),
    });
    for (const [receiver, field] of [
      [slack, "text"],
      [discord, "content"],
      [ntfy, "text"],
    ] as const) {
      const texts = await until(
        () => receiver.bodies.length >= 2 && receiver.bodies.map((body) => body[field]),
      );
      expect(texts).toEqual([
        expect.stringMatching(
          /^\[FIRING\] panics alpha\/al-chatty: PANIC \d+ http:\/\/docklens\.test\//,
        ),
        expect.stringMatching(/^\[RESOLVED\] panics alpha\/al-chatty/),
      ]);
    }
  }, 120_000);
});

describe("memory rules", () => {
  it("a container over the threshold for its duration fires, with the value", async () => {
    const fat = await until(() => of("fat").find((alert) => alert.container?.name === "al-chatty"));
    expect(fat).toMatchObject({
      state: "firing",
      cluster: { name: "alpha" },
      cause: expect.stringMatching(/^memory [\d.]+% > 1%$/),
    });
    expect(fat.value).toBeGreaterThan(1);
  });
});

describe("cpu rules", () => {
  it("a container busy over the threshold for its duration fires, with the value, and resolves once it stops", async () => {
    const name = "al-busy";
    const alertOf = (state: string) =>
      of("busy").find((alert) => alert.container?.name === name && alert.state === state);
    // A spinning shell takes all the core it is given: far above 2%, even on a shared machine.
    const spinning = [
      "--name",
      name,
      "-l",
      LABEL,
      "-l",
      BUSY,
      IMAGE,
      "sh",
      "-c",
      "while :; do :; done",
    ];
    await withContainer(engines.hostA, spinning, async () => {
      const busy = await until(() => alertOf("firing"));
      expect(busy).toMatchObject({
        cluster: { name: "alpha" },
        cause: expect.stringMatching(/^cpu [\d.]+% > 2%$/),
        link: expect.stringMatching(
          new RegExp(
            `^http://docklens\\.test/#/cluster/alpha/container/[0-9a-f]{64}\\?name=${name}$`,
          ),
        ),
      });
      expect(busy.value).toBeGreaterThan(2);
      expect(busy.cause).toBe(`cpu ${busy.value}% > 2%`);
      await docker(engines.hostA, "stop", "-t", "0", name);
      const resolved = await until(() => alertOf("resolved"));
      expect(resolved).toMatchObject({ cluster: { name: "alpha" }, container: { name } });
    });
  });
});

describe("fleet rules", () => {
  it("drift: a reference that means two images on two engines fires on each", async () => {
    const drift = await until(() => {
      const found = of("drifted").filter((alert) => alert.cause.startsWith("local/app:1 is "));
      return found.length === 2 && found;
    });
    expect(drift).toBeTruthy();
    expect((drift as any[]).map((alert) => alert.cluster.name).sort()).toEqual(["alpha", "bravo"]);
    expect((drift as any[])[0]).toMatchObject({
      container: null,
      value: "local/app:1",
      link: "http://docklens.test/#/drift",
    });
  });

  it("missing: a service running on one engine and not on the other fires there, and resolves when it runs", async () => {
    const missing = await until(() => of("absent").find((alert) => alert.value === "chatty"));
    expect(missing).toMatchObject({
      state: "firing",
      cluster: { id: 7, name: "bravo" },
      container: null,
      cause: "chatty is not running here; it runs on alpha",
    });
    await docker(
      engines.hostB,
      "run",
      "-d",
      "--name",
      "al-chatty-b",
      "-l",
      LABEL,
      "-l",
      `${SERVICE}=chatty`,
      IMAGE,
      "sleep",
      "100000",
    );
    const resolved = await until(() =>
      of("absent").find((alert) => alert.value === "chatty" && alert.state === "resolved"),
    );
    expect(resolved).toMatchObject({ id: missing.id, cluster: { name: "bravo" } });
  });
});

describe("docklens alerts", () => {
  const config = (rules: object[]) =>
    writeConfig("alerts-cli.json", { clusters: clusters(), alerts: { rules } });

  it("prints what fires now and exits 1; --json gives the alerts", async () => {
    const path = await config([
      { name: "crashed", when: "exited", filter: ["label=app=failed"] },
      { name: "healthy", when: "unhealthy", filter: ["label=app=web"] },
    ]);
    const table = await cli(["alerts", "--config", path]);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^RULE\s+WHEN\s+CLUSTER\s+CONTAINER\s+CAUSE\n/);
    expect(table.stdout).toMatch(/^crashed\s+exited\s+alpha\s+failed\s+exited with code 3$/m);
    const json = await cli(["alerts", "--json", "--config", path]);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body.alerts).toEqual([
      expect.objectContaining({
        rule: "crashed",
        state: "firing",
        container: expect.objectContaining({ name: "failed" }),
        value: 3,
      }),
    ]);
  });

  it("exits 0 when nothing fires", async () => {
    const path = await config([{ name: "crashed", when: "exited", filter: ["label=app=web"] }]);
    const result = await cli(["alerts", "--config", path]);
    expect(result).toMatchObject({ code: 0, stdout: "no alerts fire\n" });
  });

  it("names the rule and the key of a config error, and exits 2", async () => {
    const path = await config([{ name: "crashed", when: "exited", cluster: "nowhere" }]);
    const result = await cli(["alerts", "--config", path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^docklens: alerts rule "crashed": cluster "nowhere" not found/);
  });
});

describe("docklens serve", () => {
  it("runs the config's rules: the first list fires, /alerts and the log show it, a bad receiver stops it", async () => {
    const path = await writeConfig("alerts-serve.json", {
      clusters: clusters(),
      alerts: {
        receivers: [{ name: "hook", webhook: hook.url }],
        rules: [{ name: "crashed", when: "exited", filter: ["label=app=failed"] }],
      },
    });
    const child = spawn(
      process.execPath,
      [BIN, "serve", "--config", path, "--port", "0", "--json"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    try {
      const [line] = (await once(child.stdout, "data")) as [Buffer];
      const { url } = JSON.parse(line.toString());
      const alerts = await until(async () => {
        const body = (await (await fetch(`${url}/alerts`)).json()) as { alerts: any[] };
        return body.alerts.length > 0 && body.alerts;
      });
      expect(alerts).toEqual([
        expect.objectContaining({
          rule: "crashed",
          state: "firing",
          cluster: { id: 1, name: "alpha" },
          cause: "exited with code 3",
          link: expect.stringMatching(/\/#\/cluster\/alpha\/container\/[0-9a-f]{64}\?name=failed$/),
        }),
      ]);
      expect(
        await until(() =>
          stderr.includes('"alerts":"alert firing: crashed alpha/failed: exited with code 3"'),
        ),
      ).toBe(true);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    const broken = await writeConfig("alerts-serve-broken.json", {
      clusters: clusters(),
      alerts: {
        receivers: [{ name: "chat", slack: { env: "DOCKLENS_TEST_UNSET" } }],
        rules: [{ name: "x", when: "oom" }],
      },
    });
    const result = await cli(["serve", "--config", broken, "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^docklens: alerts receiver "chat": the variable DOCKLENS_TEST_UNSET is not set$/m,
    );
  });
});
