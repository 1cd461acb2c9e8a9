import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlerts, type AlertsService } from "../../src/core/alerts/alerts.ts";
import { listContainers } from "../../src/core/containers/containers.ts";
import { loadFleet, resolveCluster, type Fleet } from "../../src/core/engine/fleet.ts";
import { mirrorState } from "../../src/core/hub/container-mirror.ts";
import { until } from "../support/until.ts";
import { startHook, type Hook } from "./alert-receivers.ts";
import { docker, engines, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";

/**
 * Alerts at scale (issue 28): rules answered from the clusters' live mirrors, not one engine list
 * per event; a first list that does not wait for its inspects.
 */
const LABEL = "docklens-test=alert-scale";
const IMAGE = "local/busybox:1";
let linked: LinkProxy;
let held: LinkProxy;
let stalled: LinkProxy;
let hook: Hook;
let fleet: Fleet;
let service: AlertsService;
const log: string[] = [];

beforeAll(async () => {
  const socket = { path: engines.hostA.replace("unix://", "") };
  // `held` passes on no inspect: the engine hangs on every one.
  // `stalled` passes on no list of some containers by id: the mirror's re-reads after events.
  [linked, held, stalled, hook] = await Promise.all([
    startProxy(socket),
    startProxy(socket, 0, /^GET \/(v[\d.]+\/)?containers\/[0-9a-f]+\/json/),
    startProxy(socket, 0, /^GET \S*containers\/json\?.*filters=.*%22id%22/),
    startHook(),
  ]);
  // A running container: the first list of `held` needs its inspect for its times.
  await docker(engines.hostA, "run", "-d", "-l", LABEL, IMAGE, "sleep", "600");
  const path = await writeConfig("alert-scale.json", {
    clusters: [
      { name: "linked", host: "127.0.0.1", port: linked.port },
      { name: "held", host: "127.0.0.1", port: held.port, timeoutMs: 120_000 },
      { name: "stalled", host: "127.0.0.1", port: stalled.port, timeoutMs: 1000 },
    ],
    alerts: {
      receivers: [{ name: "hook", webhook: hook.url }],
      rules: [
        { name: "crashed", when: "exited", cluster: "linked", filter: [`label=${LABEL}`] },
        { name: "any", when: "exited", cluster: "held" },
        { name: "lost", when: "exited", cluster: "stalled" },
      ],
    },
  });
  // A short grace: a mirror no one holds closes soon.
  fleet = await loadFleet({ configPath: path, live: true, graceMs: 300 });
  const delivery = { groupWaitMs: 50, groupIntervalMs: 0 };
  service = startAlerts({ fleet, log: (line) => log.push(line), delivery });
  // The rules' first evaluations: a filtered list of `linked`, the mirror of `held`.
  await until(
    () =>
      filtered() &&
      ["held", "stalled"].every((name) => mirrorState(resolveCluster(name, { fleet }), { fleet })),
  );
});

afterAll(async () => {
  service?.close();
  fleet?.close();
  await Promise.all([linked?.close(), held?.close(), stalled?.close(), hook?.close()]);
  const ids = await docker(engines.hostA, "ps", "-aq", "--filter", `label=${LABEL}`);
  if (ids) await docker(engines.hostA, "rm", "-f", ...ids.split("\n"));
  // The containers the rules must not see by their label have none.
  await docker(engines.hostA, "rm", "-f", "as-other", "as-held", "as-lost").catch(() => "");
});

/** Engine lists with filters seen on the link to `linked`. */
const filtered = () =>
  linked.requests.filter((line) => /containers\/json\?.*filters=.*alert-scale/.test(line)).length;
const alertsOf = (rule: string, name: string) =>
  hook.alerts().filter((alert) => alert.rule === rule && alert.container?.name === name);
const exit = (name: string, code: number, label = true) =>
  docker(
    engines.hostA,
    "run",
    "--name",
    name,
    ...(label ? ["-l", LABEL] : []),
    IMAGE,
    "sh",
    "-c",
    `exit ${code}`,
  ).catch(() => "");

describe("a rule with a filter", () => {
  it("answers each event from the cluster's mirror, with no engine list per event", async () => {
    const cluster = resolveCluster("linked", { fleet });
    // The first evaluation (one filtered list) is done, and the mirror is live.
    await exit("as-first", 3);
    expect(await until(() => alertsOf("crashed", "as-first").length)).toBe(1);
    const before = filtered();
    for (const name of ["as-one", "as-two", "as-three"]) await exit(name, 5);
    await exit("as-other", 5, false);
    for (const name of ["as-one", "as-two", "as-three"])
      expect(await until(() => alertsOf("crashed", name).length)).toBe(1);
    // The container without the label is not the rule's.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alertsOf("crashed", "as-other")).toEqual([]);
    expect(filtered()).toBe(before);
    expect(mirrorState(cluster, { fleet })?.status).toBe("live");
  });
});

describe("a rule without a filter", () => {
  it("fires while the first list's inspects still hang, and the mirror serves the list items", async () => {
    await exit("as-held", 4, false);
    expect(await until(() => alertsOf("any", "as-held").length)).toBe(1);
    const cluster = resolveCluster("held", { fleet });
    const state = mirrorState(cluster, { fleet })!;
    expect(state.status).toBe("live");
    expect(state.inspected).toBeLessThan(state.containers);
    const { running } = await listContainers("held", { fleet });
    expect(running.some((item) => item.Labels[LABEL.split("=")[0]!] === "alert-scale")).toBe(true);
  });
});

describe("an event whose container cannot be read", () => {
  it("is counted and logged, not dropped silently", async () => {
    await exit("as-lost", 6, false);
    expect(
      await until(() => service.lookupFailures().find((one) => one.rule === "lost")?.count),
    ).toBeGreaterThan(0);
    expect(
      log.filter((line) =>
        /^rule "lost": \d+ events lost, their containers could not be read \(stalled: .+\)$/.test(
          line,
        ),
      ),
    ).toHaveLength(1);
    expect(alertsOf("lost", "as-lost")).toEqual([]);
  });
});

describe("the rules' mirrors", () => {
  it("are held while the rules run: a quiet spell costs no list again", async () => {
    const cluster = resolveCluster("linked", { fleet });
    const lists = () =>
      linked.requests.filter((line) => /^GET \S*containers\/json\?all=true$/.test(line)).length;
    const before = lists();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mirrorState(cluster, { fleet })?.status).toBe("live");
    await exit("as-quiet", 7);
    expect(await until(() => alertsOf("crashed", "as-quiet").length)).toBe(1);
    expect(lists()).toBe(before);
  });
});
