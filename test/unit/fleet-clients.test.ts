import { describe, expect, it } from "vitest";
import { DEFAULT_TUNING, toClusterConfig } from "../../src/core/config/cluster-config.ts";
import { parseEndpoint } from "../../src/core/config/endpoint.ts";
import { createFleet, fleetEngine } from "../../src/core/engine/fleet.ts";

/**
 * The fleet's cache of engine clients, without an engine: building a client opens no connection,
 * so the cluster's socket need not exist.
 */
const cluster = toClusterConfig(
  { id: 1, name: "alpha", host: "/nonexistent/docklens-test.sock" },
  parseEndpoint("/nonexistent/docklens-test.sock"),
  DEFAULT_TUNING,
);

const fleetOf = () =>
  createFleet({ clusters: [cluster], showSecrets: false, source: null, warnings: [] });

describe("the fleet's engine clients", () => {
  it("are handed out as promises while built, then as themselves, one per purpose", async () => {
    const fleet = fleetOf();
    const first = fleetEngine(fleet, cluster);
    expect(first).toBeInstanceOf(Promise);
    // A second call while the first builds shares its build.
    expect(fleetEngine(fleet, cluster)).toBe(first);
    const backend = await first;
    expect(fleetEngine(fleet, cluster)).toBe(backend);
    const stream = fleetEngine(fleet, cluster, "stream");
    expect(stream).toBeInstanceOf(Promise);
    expect(await stream).not.toBe(backend);
    fleet.close();
  });

  it("are built anew after the fleet closed, also when it closed during a build", async () => {
    const fleet = fleetOf();
    const backend = await fleetEngine(fleet, cluster);
    fleet.close();
    const after = fleetEngine(fleet, cluster);
    expect(after).toBeInstanceOf(Promise);
    expect(await after).not.toBe(backend);
    const building = fleetEngine(fleet, cluster, "sample");
    fleet.close();
    await building;
    expect(fleetEngine(fleet, cluster, "sample")).toBeInstanceOf(Promise);
    fleet.close();
  });
});
