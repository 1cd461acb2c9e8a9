import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { ClusterContainerItem } from "../../src/core/containers/containers.ts";
import { psTable } from "../../src/cli/render/containers.ts";
import { psDefault } from "../../src/core/containers/containers.ts";

/** A container of `ps` with only what its order reads: its cluster, its name, when it was created. */
const item = (
  clusterId: number,
  cluster: string,
  name: string,
  created = "2026-12-01T10:00:00.000Z",
) =>
  ({
    Id: `${cluster}.${name}`,
    Names: [`/${name}`],
    Created: created,
    cluster: { id: clusterId, name: cluster },
  }) as unknown as ClusterContainerItem;

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, seconds)).toISOString();

describe("ps lists newest first, as docker ps; of one second, by cluster id, then the engine's order", () => {
  it.each([
    [
      [item(1, "b", "old", at(1)), item(1, "b", "new", at(30)), item(1, "b", "mid", at(9))],
      ["b.new", "b.mid", "b.old"],
    ],
    [
      // The list across clusters comes by cluster id, each in its engine's order (newest first).
      [item(2, "zulu", "web", at(5)), item(2, "zulu", "db", at(5)), item(7, "alpha", "api", at(5))],
      ["zulu.web", "zulu.db", "alpha.api"],
    ],
    [
      [
        item(2, "zulu", "web", at(5)),
        item(7, "alpha", "api", at(6)),
        item(7, "alpha", "db", at(1)),
      ],
      ["alpha.api", "zulu.web", "alpha.db"],
    ],
  ])("%#", (items, order) => {
    const lines = psTable(items, new Chalk({ level: 0 }), { quiet: true, full: true }).split("\n");
    expect(lines).toEqual(order.map((id) => `${id.split(".")[0]}/${id}`));
  });

  it("with one cluster, the table has no CLUSTER column, as docker's has none", () => {
    const container = {
      ...item(1, "alpha", "web"),
      Image: "local/busybox:1",
      Command: "sleep 1",
      State: "running",
      Status: "Up 1 second",
      Ports: [],
    } as unknown as ClusterContainerItem;
    const colors = new Chalk({ level: 0 });
    expect(psTable([container], colors, { oneCluster: true })).toMatch(/^CONTAINER ID\s+IMAGE\s/);
    expect(psTable([container], colors)).toMatch(/^CLUSTER\s+CONTAINER ID\s/);
  });
});

describe("psDefault: what docker ps lists without -a", () => {
  const states = ["running", "paused", "restarting", "exited", "created", "dead", "removing"];
  const items = states.map((State) => ({ State }) as unknown as ClusterContainerItem);
  it.each([
    [undefined, ["running", "paused", "restarting"]],
    [{}, ["running", "paused", "restarting"]],
    [{ name: ["web"] }, ["running", "paused", "restarting"]],
    // The engine already kept the matches of a status filter: every one of them is listed.
    [{ status: ["exited"] }, states],
    [{ status: [] }, ["running", "paused", "restarting"]],
  ])("filters %j: %j", (filters, shown) => {
    expect(psDefault(items, filters).map((item) => item.State)).toEqual(shown);
  });
});
