import { afterAll, describe, expect, it } from "vitest";
import { createFleet, loadFleet } from "../../src/core/engine/fleet.ts";
import { readAllStats, streamAllStats } from "../../src/core/containers/all-stats.ts";
import { selectContainers } from "../../src/core/containers/selection.ts";
import { parseFilters } from "../../src/core/engine/filters.ts";
import { dockerIds, engines } from "./helpers.ts";

/** Selections of containers across clusters, and the stats of every container of one. */
const fleet = await loadFleet({ configPath: engines.configPath });
afterAll(() => fleet.close());
const running = (host: string) =>
  dockerIds(host, "ps", "-q", "--no-trunc", "--filter", "status=running");

describe("selections", () => {
  it("choose by cluster, docker's filters and compose project, stopped containers too", async () => {
    const shop = await selectContainers({ fleet, project: "shop" });
    expect(shop.containers.map((c) => `${c.cluster.name}/${c.name}`)).toEqual([
      "alpha/shop-web",
      "bravo/shop-db",
    ]);
    expect(shop.errors.map((e) => e.cluster.name)).toEqual(["dead", "hang"]);
    const exited = await selectContainers({
      fleet,
      clusters: ["alpha"],
      filters: parseFilters("containers", ["name=failed"]),
    });
    expect(exited.containers.map((c) => [c.name, c.state])).toEqual([["failed", "exited"]]);
  });

  it("over the bound is INVALID_QUERY naming how many matched", async () => {
    await expect(
      selectContainers({ fleet, clusters: ["alpha", "bravo"], maxContainers: 2 }),
    ).rejects.toMatchObject({
      code: "INVALID_QUERY",
      message: expect.stringMatching(/^the selection matches \d+ containers, more than 2/),
    });
    // The config's maxSelection is the bound of a call that sets none.
    const bounded = createFleet({ ...fleet.config, maxSelection: 1 });
    try {
      await expect(selectContainers({ fleet: bounded, clusters: ["alpha"] })).rejects.toMatchObject(
        {
          code: "INVALID_QUERY",
          message: expect.stringMatching(/, more than 1:/),
        },
      );
    } finally {
      bounded.close();
    }
    await expect(selectContainers({ fleet, project: "no/such" })).rejects.toMatchObject({
      code: "INVALID_QUERY",
      param: "project",
    });
  });
});

describe("stats of every container", () => {
  it("samples every running container, agreeing with docker ps; failed clusters are errors entries", async () => {
    const body = await readAllStats({ fleet });
    const [a, b] = await Promise.all([running(engines.hostA), running(engines.adminB)]);
    expect(body.stats.map((item) => item.container.id).sort()).toEqual([...a, ...b].sort());
    expect(body.errors.map(({ cluster, error }) => [cluster.name, error.code])).toEqual([
      ["dead", "ENGINE_UNREACHABLE"],
      ["hang", "ENGINE_TIMEOUT"],
    ]);
    const web = body.stats.find((item) => item.container.name === "web")!;
    expect(web.cluster).toEqual({ id: 1, name: "alpha" });
    expect(web.summary.memoryUsage).toBeGreaterThan(0);
    expect(web.summary.pids).toBeGreaterThanOrEqual(1);
  });

  it("streams rounds of the selection until aborted", async () => {
    const controller = new AbortController();
    const rounds = await streamAllStats({
      fleet,
      clusters: ["bravo"],
      project: "shop",
      signal: controller.signal,
    });
    const seen = [];
    for await (const round of rounds) {
      seen.push(round.stats.map((item) => item.container.name));
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual([["shop-db"], ["shop-db"]]);
  });
});
