import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { ClusterContainerItem } from "../../src/core/containers/containers.ts";
import { psTable } from "../../src/cli/render/containers.ts";
import { psDefault } from "../../src/core/containers/containers.ts";

/** A container of `ps` with only what its order reads: its cluster, its name, an id naming both. */
const item = (clusterId: number, cluster: string, name: string) =>
  ({
    Id: `${cluster}.${name}`,
    Names: [`/${name}`],
    cluster: { id: clusterId, name: cluster },
  }) as unknown as ClusterContainerItem;

describe("ps orders by cluster id, then names in the natural order", () => {
  it.each([
    [
      [item(1, "b", "run-10"), item(1, "b", "run-2"), item(1, "b", "run-1")],
      ["b.run-1", "b.run-2", "b.run-10"],
    ],
    [
      [item(7, "alpha", "web"), item(2, "zulu", "web"), item(7, "alpha", "api")],
      ["zulu.web", "alpha.api", "alpha.web"],
    ],
  ])("%#", (items, order) => {
    const lines = psTable(items, new Chalk({ level: 0 }), { quiet: true, full: true }).split("\n");
    expect(lines).toEqual(order.map((id) => `${id.split(".")[0]}/${id}`));
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
