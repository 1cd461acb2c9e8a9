import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listClusters } from "../../src/core/clusters/clusters.ts";
import { type Fleet } from "../../src/core/engine/fleet.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";

/** What changes only with the engine (`/version`, its name) is read once per connection (issue 25 item 4). */
let proxy: LinkProxy;
let fleet: Fleet;

beforeAll(async () => {
  ({ proxy, fleet } = await linkedFleet("engine-facts.json"));
});
afterAll(async () => {
  fleet.close();
  await proxy.close().catch(() => undefined);
});

const asked = (path: string) =>
  proxy.requests.filter((line) => new RegExp(`^GET (/v[\\d.]+)?${path}\\b`).test(line)).length;

describe("engine facts", () => {
  it("asks each engine /info and /volumes for /list/cluster, /version only once per connection", async () => {
    const first = await listClusters({ fleet });
    expect(first.clusters[0]!.error).toBeUndefined();
    await listClusters({ fleet });
    await listClusters({ fleet });
    expect([asked("/info"), asked("/volumes"), asked("/version")]).toEqual([3, 3, 1]);

    // The engine went away: once back, it may be another, so its version is read again.
    await proxy.cut();
    expect((await listClusters({ fleet })).clusters[0]!.error?.code).toMatch(/^ENGINE_/);
    await proxy.restore();
    // The first call may still meet a socket the cut closed; the engine is asked again.
    let back = await listClusters({ fleet });
    for (let i = 0; i < 20 && back.clusters[0]!.error; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      back = await listClusters({ fleet });
    }
    expect(back.clusters[0]!.error).toBeUndefined();
    expect(asked("/version")).toBe(2);
  });
});
