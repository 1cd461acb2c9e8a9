import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { ClusterContainerItem } from "../../src/core/containers/containers.ts";
import { psTable } from "../../src/cli/render/containers.ts";

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
