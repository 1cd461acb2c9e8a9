import { afterAll, beforeAll, expect, it } from "vitest";
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
 * next inspect, which the proxy holds here.
 */
const LABEL = "docklens-test=mirror-network-mode";
/** The request lines the proxy holds: none until set. */
let holding: RegExp | undefined;
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
