import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectCluster } from "../../src/core/clusters/clusters.ts";
import { listAllContainers, listContainers } from "../../src/core/containers/containers.ts";
import { listImages } from "../../src/core/objects/images.ts";
import { listNetworks } from "../../src/core/objects/networks.ts";
import { listVolumes } from "../../src/core/objects/volumes.ts";
import { loadFleet, resolveCluster, type Fleet } from "../../src/core/engine/fleet.ts";
import { mirrorState } from "../../src/core/hub/container-mirror.ts";
import { docker, engines, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { startServer, type TestServer } from "./server-helpers.ts";

/** The live mirror of each engine's containers (issue 25 item 2, D21), against Docker and Podman. */
const LABEL = "docklens-test=mirror";
let live: Fleet;
let direct: Fleet;
let proxy: LinkProxy;
let server: TestServer;

beforeAll(async () => {
  proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
  const hang = JSON.parse(await readFile(engines.configPath, "utf8")).clusters.find(
    (cluster: { name: string }) => cluster.name === "hang",
  );
  const config = await writeConfig("mirror.json", {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { name: "pod", host: engines.hostP, timeoutMs: engines.podTimeoutMs },
      { name: "linked", host: "127.0.0.1", port: proxy.port },
      hang,
    ],
  });
  live = await loadFleet({ configPath: config, live: true, graceMs: 2000 });
  direct = await loadFleet({ configPath: config });
  server = await startServer({ log: false, fleet: live });
});
afterAll(async () => {
  await server?.close();
  direct?.close();
  await proxy?.close().catch(() => undefined);
  for (const host of [engines.hostA, engines.hostP]) {
    const ids = (await docker(host, "ps", "-aq", "--filter", `label=${LABEL}`)).split("\n");
    if (ids.filter(Boolean).length) await docker(host, "rm", "-f", ...ids.filter(Boolean));
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** By id, each item's ports in one order: the engine lists a container's ports in no fixed order. */
const byId = <T extends { Id: string; Ports?: unknown[] }>(list: T[]) =>
  [...list]
    .sort((a, b) => a.Id.localeCompare(b.Id))
    .map((item) => ({
      ...item,
      Ports: item.Ports?.map((port) => JSON.stringify(port)).sort(),
    }));

/**
 * The mirror's list equals the engine's as read just before or just after it (the `Status` text
 * moves with time), soon after the last change: polled until it does, up to 5 s (a re-read and
 * an inspect, which a loaded machine made take more than a second).
 */
async function expectMirrored(cluster: string): Promise<void> {
  let last: unknown;
  for (const end = Date.now() + 5000; ;) {
    const before = await listContainers(cluster, { fleet: direct });
    const mirrored = await listContainers(cluster, { fleet: live });
    const after = await listContainers(cluster, { fleet: direct });
    const same = (engine: typeof before) =>
      JSON.stringify(byId(engine.containers)) === JSON.stringify(byId(mirrored.containers));
    if (same(before) || same(after)) {
      expect(byId(mirrored.running)).toEqual(
        byId(mirrored.containers.filter((c) => c.State === "running")),
      );
      return;
    }
    last = { engine: byId(after.containers), mirror: byId(mirrored.containers) };
    if (Date.now() > end) break;
    await sleep(50);
  }
  expect((last as { mirror: unknown }).mirror).toEqual((last as { engine: unknown }).engine);
}

/** Random churn on one engine: every kind of change a list item shows, and a create+remove burst. */
async function churn(host: string, podman: boolean): Promise<void> {
  const run = (...args: string[]) => docker(host, ...args);
  const health = [
    "--health-cmd",
    "test -e /tmp/ok",
    "--health-interval",
    "1s",
    "--health-retries",
    "1",
  ];
  const ids = await Promise.all([
    run(
      "run",
      "-d",
      "-l",
      LABEL,
      "-l",
      "n=1",
      "-p",
      "127.0.0.1::80",
      "local/busybox:1",
      "sleep",
      "300",
    ),
    run(
      "run",
      "-d",
      "-l",
      LABEL,
      ...health,
      "local/busybox:1",
      "sh",
      "-c",
      "touch /tmp/ok; sleep 300",
    ),
    run("create", "-l", LABEL, "local/busybox:1", "true"),
    run("run", "-d", "-l", LABEL, "local/busybox:1", "sh", "-c", "exit 3"),
  ]);
  const [a, b, c] = ids;
  const steps: Array<() => Promise<unknown>> = [
    () => run("stop", "-t", "0", a),
    () => run("start", a),
    () => run("pause", a),
    () => run("unpause", a),
    () => run("rename", b, `mirror-${Date.now()}`),
    () => run("exec", b, "rm", "/tmp/ok"),
    () => run("start", c),
    () => run("rm", "-f", c),
    // Created and removed within one burst of events: never listed.
    async () => run("rm", await run("create", "-l", LABEL, "local/busybox:1", "true")),
    () => run("kill", b),
  ];
  for (const step of steps.sort(() => Math.random() - 0.5)) {
    await step().catch(() => undefined);
    if (Math.random() < 0.4) await sleep(Math.random() * 300);
  }
  // Health changes come from the engine's own checks, a second or so later.
  if (!podman) await sleep(1500);
}

describe("the container mirror", () => {
  it.each([
    ["alpha", engines.hostA, false],
    ["pod", engines.hostP, true],
  ])(
    "equals the engine's list of %s after random churn, Status text included",
    async (cluster, host, podman) => {
      // Live from its list items at once; its inspects (the times of each Status text) follow.
      await listContainers(cluster, { fleet: live });
      const state = () => mirrorState(resolveCluster(cluster, { fleet: live }), { fleet: live });
      // Each round lists again: under load the wait may outlast the mirror's 2 s of grace.
      const inspected = () => (state()?.inspected ?? -1) >= (state()?.containers ?? 0);
      for (let i = 0; i < 100 && !inspected(); i++) {
        await sleep(100);
        await listContainers(cluster, { fleet: live });
      }
      await expectMirrored(cluster);
      expect(mirrorState(resolveCluster(cluster, { fleet: live }), { fleet: live })?.status).toBe(
        "live",
      );
      await churn(host, podman);
      await expectMirrored(cluster);
      // And at random moments afterwards: the Status text derived from the times, as the engine's.
      for (let i = 0; i < 5; i++) {
        await sleep(Math.random() * 1500);
        await expectMirrored(cluster);
      }
    },
    60_000,
  );

  it("keeps the across-cluster list of unchanged mirrors as one body, and builds it anew on a change", async () => {
    const clusters = ["alpha", "pod"];
    const fleet = { fleet: live, clusters };
    let same = false;
    // A running container's Status may turn over between two reads: then the body is new, rightly.
    for (let i = 0; i < 3 && !same; i++)
      same = (await listAllContainers(fleet)) === (await listAllContainers(fleet));
    expect(same).toBe(true);
    const before = await listAllContainers(fleet);
    const added = await docker(engines.hostA, "create", "-l", LABEL, "local/busybox:1", "true");
    let ids: string[] = [];
    for (const end = Date.now() + 5000; Date.now() < end && !ids.includes(added); await sleep(50))
      ids = (await listAllContainers(fleet)).containers.map((item) => item.Id);
    expect(ids).toContain(added);
    expect(before.containers.map((item) => item.Id)).not.toContain(added);
  });

  it("keeps the across-cluster list as one body while a failing cluster fails the same way", async () => {
    // A hub with one node down: the body (and its serialisation) must not be rebuilt per request.
    const fleet = { fleet: live, clusters: ["alpha", "pod", "hang"] };
    await listAllContainers(fleet).catch(() => undefined);
    let same = false;
    for (let i = 0; i < 3 && !same; i++) {
      const [first, second] = [await listAllContainers(fleet), await listAllContainers(fleet)];
      expect(first.errors.map((error) => error.cluster.name)).toEqual(["hang"]);
      same = first === second;
    }
    expect(same).toBe(true);
  });

  it("answers a hung engine's lists with its error at once, asking the engine nothing more", async () => {
    const hang = resolveCluster("hang", { fleet: live });
    await expect(listContainers("hang", { fleet: live })).rejects.toMatchObject({
      code: "ENGINE_TIMEOUT",
    });
    const calls = live.slot(hang).calls;
    const timedOut = { code: "ENGINE_TIMEOUT" };
    for (let i = 0; i < 5; i++)
      await expect(listContainers("hang", { fleet: live })).rejects.toMatchObject(timedOut);
    // The lists the mirror does not serve too (filters, sizes, other objects, the cluster's facts).
    const fleet = { fleet: live };
    await expect(
      listContainers("hang", { ...fleet, filters: { status: ["running"] } }),
    ).rejects.toMatchObject(timedOut);
    await expect(listContainers("hang", { ...fleet, size: true })).rejects.toMatchObject(timedOut);
    await expect(listImages("hang", fleet)).rejects.toMatchObject(timedOut);
    await expect(listVolumes("hang", fleet)).rejects.toMatchObject(timedOut);
    await expect(listNetworks("hang", fleet)).rejects.toMatchObject(timedOut);
    expect((await inspectCluster("hang", fleet)).error).toMatchObject(timedOut);
    expect(live.slot(hang).calls).toBe(calls);
    const response = await fetch(`${server.url}/list/hang/images`);
    expect(response.status).toBe(504);
  });

  it("serves 20 clients' lists from one engine list, and re-lists after the link to the engine drops", async () => {
    const lists = () => proxy.requests.filter((line) => /\/containers\/json/.test(line)).length;
    await (await fetch(`${server.url}/list/linked/containers`)).json();
    const before = lists();
    const bodies = await Promise.all(
      Array.from(
        { length: 20 },
        async () => (await fetch(`${server.url}/list/linked/containers`)).json() as Promise<any>,
      ),
    );
    expect(lists()).toBe(before);
    const engine = await listContainers("linked", { fleet: direct });
    for (const body of bodies)
      expect(byId(body.containers).map((c: any) => c.Id)).toEqual(
        byId(engine.containers).map((c) => c.Id),
      );

    await proxy.cut();
    await sleep(300);
    const cut = await fetch(`${server.url}/list/linked/containers`);
    expect(cut.status).toBe(502);
    expect(((await cut.json()) as any).error.code).toBe("ENGINE_UNREACHABLE");
    const added = await docker(engines.hostA, "create", "-l", LABEL, "local/busybox:1", "true");
    await proxy.restore();
    let ids: string[] = [];
    for (
      const end = Date.now() + 15_000;
      Date.now() < end && !ids.includes(added);
      await sleep(100)
    ) {
      const response = await fetch(`${server.url}/list/linked/containers`);
      if (response.ok)
        ids = ((await response.json()) as any).containers.map((c: { Id: string }) => c.Id);
    }
    expect(ids).toContain(added);
    await expectMirrored("linked");
  }, 60_000);
});
