import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlerts, type AlertsService } from "../../src/core/alerts/alerts.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { until } from "../support/until.ts";
import { startHook, type Hook } from "./alert-receivers.ts";
import { docker, engines, withContainer, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";

/** A log rule reads every line written after it started, however late its follows open. */
const LABEL = "docklens-test=alert-log-follow";
const IMAGE = "local/busybox:1";
/** A container's logs requests, on which the engine hangs until the test releases them. */
const LOGS = /^GET \S*containers\/[0-9a-f]+\/logs/;
const holding = { on: true, test: (line: string) => holding.on && LOGS.test(line) };
let hook: Hook;
let proxy: LinkProxy;
let fleet: Fleet;
let service: AlertsService | undefined;

beforeAll(async () => {
  [hook, proxy] = await Promise.all([
    startHook(),
    startProxy({ path: engines.hostA.replace("unix://", "") }, 0, holding),
  ]);
  const path = await writeConfig("alert-log-follow.json", {
    // Held requests wait for the test, not for docklens's timeout.
    clusters: [{ name: "slow", host: "127.0.0.1", port: proxy.port, timeoutMs: 120_000 }],
    alerts: {
      receivers: [{ name: "hook", webhook: hook.url }],
      rules: [{ name: "panics", when: "log", grep: "PANIC", filter: [`label=${LABEL}`] }],
    },
  });
  fleet = await loadFleet({ configPath: path, live: true });
});

afterAll(async () => {
  service?.close();
  fleet?.close();
  await Promise.all([hook?.close(), proxy?.close()]);
});

describe("log rules", () => {
  it("a line written after the rule started and before its follow opened fires", async () => {
    // It writes its line once the test tells it to: after the rule listed it and asked its logs.
    const waiting = [
      "-l",
      LABEL,
      IMAGE,
      "sh",
      "-c",
      "while [ ! -e /tmp/go ]; do sleep 0.1; done; echo 'PANIC written early'; sleep 600",
    ];
    await withContainer(engines.hostA, waiting, async (id) => {
      service = startAlerts({ fleet, delivery: { groupWaitMs: 50, groupIntervalMs: 0 } });
      // The rule's follow asked for the logs; the engine has not seen the request yet.
      const asked = await until(() => proxy.requests.some((line) => LOGS.test(line)));
      expect(asked).toBe(true);
      await docker(engines.hostA, "exec", id, "touch", "/tmp/go");
      const written = await until(async () =>
        (await docker(engines.hostA, "logs", id)).includes("PANIC written early"),
      );
      expect(written).toBe(true);
      holding.on = false;
      proxy.release(LOGS);
      const fired = await until(() => hook.alerts().find((alert) => alert.rule === "panics"));
      expect(fired).toMatchObject({
        state: "firing",
        cluster: { name: "slow" },
        container: { id },
        cause: "PANIC written early",
      });
    });
  });
});
