import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlerts, type AlertsService } from "../../src/core/alerts/alerts.ts";
import { checkAlerts } from "../../src/core/alerts/check-alerts.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";
import { startAlertmanager, startHook, type Alertmanager, type Hook } from "./alert-receivers.ts";
import { cli, docker, engines, writeConfig } from "./helpers.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

/** Alerting in serve (issue 28): state rules on the engine hub's events, delivered to real receivers. */
const LABEL = "docklens-test=alerts";
/** The restart loop's own: a loop of non-zero exits is no business of the `crashed` rule here. */
const LOOP = "docklens-test=alerts-loop";
const IMAGE = "local/busybox:1";
let hook: Hook;
let late: Hook;
let alertmanager: Alertmanager;
let fleet: Fleet;
let service: AlertsService;
/** A second serve's rules over the same engines, sending to the same Alertmanager: the HA story. */
let replica: { fleet: Fleet; service: AlertsService; hook: Hook };
let server: TestServer;
let configPath: string;
const log: string[] = [];

beforeAll(async () => {
  [hook, late, alertmanager] = await Promise.all([
    startHook(),
    startHook(false),
    startAlertmanager(),
  ]);
  process.env.ALERTS_TEST_TOKEN = "alpha-only-token";
  const scoped = { env: "ALERTS_TEST_TOKEN", clusters: ["alpha"] };
  const path = (configPath = await writeConfig("alerts.json", {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { id: 7, name: "bravo", host: engines.hostB },
      { name: "dead", host: "127.0.0.1", port: await freePort(), timeoutMs: 500 },
    ],
    tokens: [{ name: "alpha-only", ...scoped }],
    alerts: {
      receivers: [
        { name: "hook", webhook: hook.url },
        { name: "am", alertmanager: alertmanager.url },
        { name: "late", webhook: { env: "ALERTS_TEST_LATE_URL" } },
      ],
      rules: [
        { name: "crashed", when: "exited", filter: [`label=${LABEL}`], cooldown: "0s" },
        {
          name: "sick",
          when: "unhealthy",
          cluster: "alpha",
          filter: [`label=${LABEL}`],
          notify: ["hook"],
          cooldown: "0s",
        },
        {
          name: "loop",
          when: "restarting",
          restarts: 3,
          window: "1m",
          filter: [`label=${LOOP}`],
          notify: ["hook"],
        },
        { name: "down", when: "engine-down", cluster: "dead", notify: ["hook", "am"] },
      ],
    },
  }));
  fleet = await loadFleet({ configPath: path, live: true });
  server = await startServer({ fleet, log: false, token: "full-token" });
  const replicaHook = await startHook();
  const replicaConfig = await writeConfig("alerts-replica.json", {
    clusters: [{ name: "alpha", host: engines.hostA }],
    alerts: {
      receivers: [
        { name: "am", alertmanager: alertmanager.url },
        { name: "hook", webhook: replicaHook.url },
      ],
      rules: [{ name: "crashed", when: "exited", filter: [`label=${LABEL}`], cooldown: "0s" }],
    },
  });
  const replicaFleet = await loadFleet({ configPath: replicaConfig, live: true });
  replica = {
    fleet: replicaFleet,
    hook: replicaHook,
    service: startAlerts({
      fleet: replicaFleet,
      url: server.url,
      delivery: { groupWaitMs: 50, groupIntervalMs: 0 },
    }),
  };
  service = startAlerts({
    fleet,
    url: server.url,
    env: { ALERTS_TEST_LATE_URL: late.url },
    log: (line) => log.push(line),
    // No group interval: each test's notices at once.
    delivery: { backoffMs: [200, 1000], groupWaitMs: 50, groupIntervalMs: 0 },
  });
});

afterAll(async () => {
  service?.close();
  replica?.service.close();
  replica?.fleet.close();
  await replica?.hook.close();
  await server?.close();
  await Promise.all([hook?.close(), late?.close(), alertmanager?.stop()]);
  for (const host of [engines.hostA, engines.hostB]) {
    for (const label of [LABEL, LOOP]) {
      const ids = await docker(host, "ps", "-aq", "--filter", `label=${label}`);
      if (ids) await docker(host, "rm", "-f", ...ids.split("\n"));
    }
  }
  delete process.env.ALERTS_TEST_TOKEN;
});

const alertsOf = (receiver: Hook, rule: string, name: string) =>
  receiver.alerts().filter((alert) => alert.rule === rule && alert.container?.name === name);
const get = (path: string, token = "full-token") =>
  raw(server.port, path, { headers: { Authorization: `Bearer ${token}` } });

describe("state rules", () => {
  it("a non-zero exit fires (webhook, Alertmanager, /alerts) and a zero exit does not; removal resolves it", async () => {
    await Promise.all([
      docker(
        engines.hostA,
        "run",
        "--name",
        "al-bad",
        "-l",
        LABEL,
        IMAGE,
        "sh",
        "-c",
        "exit 4",
      ).catch(() => ""),
      docker(engines.hostA, "run", "--name", "al-good", "-l", LABEL, IMAGE, "true"),
    ]);
    expect(await until(() => alertsOf(hook, "crashed", "al-bad").length)).toBe(1);
    const [fired] = alertsOf(hook, "crashed", "al-bad");
    expect(fired).toMatchObject({
      state: "firing",
      when: "exited",
      cluster: { id: 1, name: "alpha" },
      container: { name: "al-bad" },
      cause: "exited with code 4",
      value: 4,
    });
    expect(fired.container.id).toMatch(/^[a-f0-9]{64}$/);
    // By its id: a replacement under its name is another container (issue 44).
    expect(fired.link).toBe(
      `${server.url}/#/cluster/alpha/container/${fired.container.id}?name=al-bad`,
    );
    const inAlertmanager = await until(async () =>
      (await alertmanager.alerts()).find((alert) => alert.labels.container === "al-bad"),
    );
    expect(inAlertmanager).toMatchObject({
      labels: { alertname: "crashed", cluster: "alpha", container: "al-bad" },
      annotations: { cause: "exited with code 4" },
      generatorURL: fired.link,
      status: { state: "active" },
    });
    // Two replicas told Alertmanager: it holds the alert once; each direct receiver heard its own.
    expect(await until(() => alertsOf(replica.hook, "crashed", "al-bad").length)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const held = (await alertmanager.alerts()).filter(
      (alert) => alert.labels.container === "al-bad",
    );
    expect(held).toHaveLength(1);
    const body = (await get("/alerts")).json;
    expect(body.alerts.find((alert: any) => alert.id === fired.id)).toMatchObject({
      state: "firing",
    });
    // The zero exit came with the other: had it fired, it would be here by now.
    expect(alertsOf(hook, "crashed", "al-good")).toEqual([]);
    await docker(engines.hostA, "rm", "al-bad");
    expect(await until(() => alertsOf(hook, "crashed", "al-bad").length === 2)).toBe(true);
    expect(alertsOf(hook, "crashed", "al-bad")[1]).toMatchObject({
      id: fired.id,
      state: "resolved",
    });
    expect(alertsOf(hook, "crashed", "al-bad")[1].endsAt).toBeDefined();
  });

  it("unhealthy fires, and resolves when healthy again", async () => {
    await docker(
      engines.hostA,
      "run",
      "-d",
      "--name",
      "al-sick",
      "-l",
      LABEL,
      "--health-cmd",
      "test ! -e /tmp/sick",
      "--health-interval",
      "1s",
      "--health-retries",
      "1",
      IMAGE,
      "sh",
      "-c",
      "touch /tmp/sick; sleep 100000",
    );
    expect(await until(() => alertsOf(hook, "sick", "al-sick").length)).toBe(1);
    expect(alertsOf(hook, "sick", "al-sick")[0]).toMatchObject({
      state: "firing",
      cause: "health check failing",
    });
    await docker(engines.hostA, "exec", "al-sick", "rm", "/tmp/sick");
    expect(await until(() => alertsOf(hook, "sick", "al-sick").length === 2)).toBe(true);
    expect(alertsOf(hook, "sick", "al-sick")[1]).toMatchObject({ state: "resolved" });
  });

  it("a restart loop fires once", async () => {
    await docker(
      engines.hostB,
      "run",
      "-d",
      "--name",
      "al-loop",
      "-l",
      LOOP,
      "--restart",
      "always",
      IMAGE,
      "sh",
      "-c",
      "exit 1",
    );
    expect(await until(() => alertsOf(hook, "loop", "al-loop").length)).toBe(1);
    expect(alertsOf(hook, "loop", "al-loop")[0]).toMatchObject({
      state: "firing",
      cluster: { id: 7, name: "bravo" },
      cause: expect.stringMatching(/^restarted \d+ times in 60 s$/),
    });
    // It goes on dying; the alert is told once.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(alertsOf(hook, "loop", "al-loop")).toHaveLength(1);
    await docker(engines.hostB, "rm", "-f", "al-loop");
  });

  it("an engine that is down fires engine-down, seen in /alerts and /metrics", async () => {
    const down = await until(() =>
      hook.alerts().find((alert) => alert.rule === "down" && alert.cluster?.name === "dead"),
    );
    expect(down).toMatchObject({
      state: "firing",
      container: null,
      cause: expect.stringMatching(/^engine unreachable/),
    });
    const metrics = (await get("/metrics")).text;
    expect(metrics).toMatch(/^docklens_alerts_firing\{rule="down",cluster="dead"\} 1$/m);
    expect(metrics).toMatch(/^docklens_alerts_firing\{rule="crashed",cluster="alpha"\} 0$/m);
    expect(metrics).toMatch(
      /^docklens_alert_deliveries_total\{receiver="hook",result="success"\} [1-9]/m,
    );
  });
});

describe("a container dead before the rules started", () => {
  it("fires with the time it died (State.FinishedAt), in serve and in `docklens alerts`", async () => {
    const label = "docklens-test=alerts-before";
    await docker(
      engines.hostA,
      "run",
      "--name",
      "al-before",
      "-l",
      label,
      IMAGE,
      "sh",
      "-c",
      "exit 6",
    ).catch(() => "");
    // Serve starts well after the death: its start is no time of the alert's.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = await loadFleet({
      configPath: await writeConfig("alerts-before.json", {
        clusters: [{ name: "alpha", host: engines.hostA }],
        alerts: { rules: [{ name: "dead", when: "exited", filter: [`label=${label}`] }] },
      }),
      live: true,
    });
    const started = startAlerts({ fleet: before, url: "http://docklens" });
    try {
      const finished = await docker(
        engines.hostA,
        "inspect",
        "-f",
        "{{.State.FinishedAt}}",
        "al-before",
      );
      const died = new Date(Date.parse(finished)).toISOString();
      const alert = await until(() => started.list().find((one) => one.rule === "dead"));
      expect(alert).toMatchObject({
        state: "firing",
        container: { name: "al-before" },
        startsAt: died,
      });
      const checked = await checkAlerts({ fleet: before });
      expect(checked.alerts).toMatchObject([{ rule: "dead", startsAt: died }]);
    } finally {
      started.close();
      before.close();
      await docker(engines.hostA, "rm", "-f", "al-before").catch(() => "");
    }
  });
});

describe("docklens alerts --all", () => {
  it("lists what resolved in the last hour too, as GET /alerts does", async () => {
    await docker(
      engines.hostA,
      "run",
      "--name",
      "al-gone",
      "-l",
      LABEL,
      IMAGE,
      "sh",
      "-c",
      "exit 7",
    ).catch(() => "");
    expect(await until(() => alertsOf(hook, "crashed", "al-gone").length)).toBe(1);
    await docker(engines.hostA, "rm", "al-gone");
    expect(await until(() => alertsOf(hook, "crashed", "al-gone").length === 2)).toBe(true);
    const served = ((await get("/alerts")).json.alerts as any[]).find(
      (alert) => alert.container?.name === "al-gone",
    );
    expect(served).toMatchObject({ state: "resolved" });
    const run = async (...args: string[]) =>
      JSON.parse((await cli(["alerts", ...args, "--json", "--config", configPath])).stdout) as {
        alerts: any[];
      };
    // Without --all: what fires now alone.
    const now = await run();
    expect(now.alerts.every((alert) => alert.state === "firing")).toBe(true);
    expect(now.alerts.some((alert) => alert.container?.name === "al-gone")).toBe(false);
    const all = await run("--all");
    const replayed = all.alerts.find((alert) => alert.container?.name === "al-gone");
    // The same alert as serve's, its times the engine's own (serve's are when it heard them).
    const { link, startsAt, endsAt, ...same } = served;
    expect(replayed).toEqual({
      ...same,
      link: link.replace(server.url, ""),
      startsAt: expect.any(String),
      endsAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(replayed.startsAt) - Date.parse(startsAt))).toBeLessThan(2000);
    expect(Math.abs(Date.parse(replayed.endsAt) - Date.parse(endsAt))).toBeLessThan(2000);
    // In /alerts' order: firing first, then the resolved, the newest first in each.
    const states = all.alerts.map((alert) => alert.state);
    expect(states).toEqual([...states].sort((a, b) => (a === b ? 0 : a === "firing" ? -1 : 1)));
  });
});

describe("delivery", () => {
  it("a receiver that is down gets the alert late, once; its failures are counted and logged", async () => {
    await docker(
      engines.hostB,
      "run",
      "--name",
      "al-late",
      "-l",
      LABEL,
      IMAGE,
      "sh",
      "-c",
      "exit 9",
    ).catch(() => "");
    expect(await until(() => alertsOf(hook, "crashed", "al-late").length)).toBe(1);
    expect(
      await until(async () =>
        /receiver="late",result="failure"\} [1-9]/.test((await get("/metrics")).text),
      ),
    ).toBe(true);
    expect(
      log.some((line) =>
        /^receiver "late" failed \(ECONNREFUSED\); trying again in \d+ ms$/.test(line),
      ),
    ).toBe(true);
    expect(late.bodies).toEqual([]);
    await late.open();
    expect(await until(() => alertsOf(late, "crashed", "al-late").length)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(alertsOf(late, "crashed", "al-late")).toHaveLength(1);
    expect((await get("/metrics")).text).toMatch(/receiver="late",result="success"\} [1-9]/);
  });
});

describe("GET /alerts", () => {
  it("is scoped by the token's clusters", async () => {
    await until(() => service.list().some((alert) => alert.cluster?.name === "dead"));
    const all = (await get("/alerts")).json.alerts as any[];
    const scoped = (await get("/alerts", "alpha-only-token")).json.alerts as any[];
    expect(all.some((alert) => alert.cluster?.name === "dead")).toBe(true);
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((alert) => alert.cluster?.name === "alpha")).toBe(true);
    const metrics = (await get("/metrics", "alpha-only-token")).text;
    expect(metrics).not.toMatch(/docklens_alerts_firing\{rule="down",cluster="dead"\}/);
  });

  it("refuses parameters it does not take", async () => {
    expect((await get("/alerts?cluster=alpha")).status).toBe(400);
  });
});
