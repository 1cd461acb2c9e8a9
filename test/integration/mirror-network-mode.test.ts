import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { ContainerItem } from "../../src/core/containers/container-types.ts";
import { listContainers } from "../../src/core/containers/containers.ts";
import { loadFleet, resolveCluster, type Fleet } from "../../src/core/engine/fleet.ts";
import { mirrorState } from "../../src/core/hub/container-mirror.ts";
import { until } from "../support/until.ts";
import { docker, engines, withContainer, writeConfig } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";

/**
 * The network mode of a Podman container the mirror re-reads after an event: Podman's list item
 * names none (only its inspect body does), so the mode its last inspect told is served until the
 * next inspect, which the proxy holds here. Also when that inspect lands while the container is
 * re-read, or after: the mode is set when a container is made, whatever its event changed.
 */
const LABEL = "docklens-test=mirror-network-mode";
/** The request lines the proxy holds: none until set. */
let holding: { test(line: string): boolean } | undefined;
let proxy: LinkProxy;
let fleet: Fleet;

beforeAll(async () => {
  proxy = await startProxy({ path: engines.hostP.replace("unix://", "") }, 0, {
    test: (line) => holding?.test(line) ?? false,
  });
  const configPath = await writeConfig("mirror-network-mode.json", {
    clusters: [
      { name: "pod", host: "127.0.0.1", port: proxy.port, timeoutMs: engines.podTimeoutMs },
    ],
  });
  fleet = await loadFleet({ configPath, live: true, graceMs: 2000 });
});
afterEach(() => {
  holding = undefined;
  proxy.release(/./);
});
afterAll(async () => {
  fleet?.close();
  await proxy?.close().catch(() => undefined);
});

it("serves a Podman container's network mode after an event re-read it, before its inspect", async () => {
  const args = ["-l", LABEL, "--network", "none", "local/busybox:1", "sleep", "300"];
  await withContainer(engines.hostP, args, async (id) => {
    // The container as the mirror serves it, once `ok` holds of it.
    const served = (ok: (item: ContainerItem) => boolean) =>
      until(async () => {
        const { containers } = await listContainers("pod", { fleet });
        const item = containers.find((known) => known.Id === id);
        return item && ok(item) ? item : undefined;
      });
    const named = (item: ContainerItem) => item.Names.map((known) => known.replace(/^\//, ""));
    // Mirrored and inspected: the mode is the one its inspect told.
    const inspected = await served((item) => item.HostConfig.NetworkMode === "none");
    expect(inspected?.HostConfig.NetworkMode).toBe("none");
    // The rename is an event: the mirror re-reads the container, and its inspect then hangs.
    holding = new RegExp(`^GET \\S*/containers/${id}/json`);
    const name = `mirror-mode-${Date.now()}`;
    await docker(engines.hostP, "rename", id, name);
    const renamed = await served((item) => named(item).includes(name));
    expect(renamed && named(renamed)).toEqual([name]);
    // Read before its inspect: the container is not inspected since.
    const state = mirrorState(resolveCluster("pod", { fleet }), { fleet });
    expect(state?.inspected).toBeLessThan(state?.containers ?? 0);
    expect(renamed?.HostConfig.NetworkMode).toBe("none");
  });
});

/** Container inspects, and the list calls of the mirror's re-reads (by id). */
const INSPECT = /^GET \S*\/containers\/[0-9a-f]{64}\/json/;
const REREAD = /^GET \S*\/containers\/json\?\S*filters=/;
const NONE = ["-l", LABEL, "--network", "none", "local/busybox:1", "sleep", "300"];

/** The container `id` as the mirror serves it, once `ok` holds of it (a few seconds at most). */
async function served(id: string, ok: (item: ContainerItem) => boolean) {
  return until(async () => {
    const { containers } = await listContainers("pod", { fleet });
    const item = containers.find((known) => known.Id === id);
    return item && ok(item) ? item : undefined;
  }, 5000);
}

/** The mirror's state: how many containers it holds, how many it inspected. */
const state = () => mirrorState(resolveCluster("pod", { fleet }), { fleet });

/**
 * Once the mirror holds every container inspected, hold the inspects of containers no request
 * named so far (those made from now on), and also the lines `also` matches, when it is set.
 */
async function holdNewInspects(also?: { test(line: string): boolean }): Promise<void> {
  await listContainers("pod", { fleet });
  const done = await until(() => state()?.inspected === state()?.containers);
  expect(done).toBe(true);
  const before = proxy.requests.join("\n");
  const fresh = (line: string) =>
    INSPECT.test(line) && !before.includes(/[0-9a-f]{64}/.exec(line)![0]);
  holding = { test: (line) => fresh(line) || (also?.test(line) ?? false) };
}

/** Wait until the proxy saw a request line matching `line`. */
async function requested(line: RegExp): Promise<void> {
  expect(await until(() => proxy.requests.some((seen) => line.test(seen)))).toBe(true);
}

it("keeps the network mode of an inspect that lands after an event re-read the container", async () => {
  await holdNewInspects();
  await withContainer(
    engines.hostP,
    NONE,
    async (id) => {
      // Mirrored on its create event, its inspect held.
      await requested(new RegExp(`/containers/${id}/json`));
      const name = `mirror-mode-after-${Date.now()}`;
      await docker(engines.hostP, "rename", id, name);
      expect(await served(id, (item) => item.Names.includes(`/${name}`))).toBeTruthy();
      // The inspect from before the rename lands now; the next one is held.
      proxy.release(new RegExp(`/containers/${id}/json`));
      const item = await served(id, (known) => known.HostConfig.NetworkMode === "none");
      expect(item?.HostConfig.NetworkMode).toBe("none");
      expect(state()?.inspected).toBeLessThan(state()?.containers ?? 0);
    },
    "create",
  );
});

it("keeps the network mode of an inspect that lands while an event re-reads the container", async () => {
  const rereading = { on: false, test: (line: string) => rereading.on && REREAD.test(line) };
  await holdNewInspects(rereading);
  await withContainer(
    engines.hostP,
    NONE,
    async (id) => {
      await requested(new RegExp(`/containers/${id}/json`));
      // The rename's re-read is held; the inspect lands meanwhile and tells "none".
      rereading.on = true;
      const rereads = proxy.requests.filter((line) => REREAD.test(line)).length;
      const name = `mirror-mode-during-${Date.now()}`;
      await docker(engines.hostP, "rename", id, name);
      await until(() => proxy.requests.filter((line) => REREAD.test(line)).length > rereads);
      proxy.release(new RegExp(`/containers/${id}/json`));
      const inspected = await served(id, (item) => item.HostConfig.NetworkMode === "none");
      expect(inspected?.HostConfig.NetworkMode).toBe("none");
      // The re-read lands: renamed, and still "none" (its next inspect is held).
      proxy.release(REREAD);
      const renamed = await served(id, (item) => item.Names.includes(`/${name}`));
      expect(renamed?.HostConfig.NetworkMode).toBe("none");
      expect(state()?.inspected).toBeLessThan(state()?.containers ?? 0);
    },
    "create",
  );
});
