// The page's fleet as the watch's lines make it (src/web/fleet-model.ts): what each line does,
// and what a stream opened again keeps until its own lines and its `synced` come.
import { describe, expect, it } from "vitest";
import type { ContainerItem, ContainerWatchLine } from "../../src/index.ts";
import { FleetModel } from "../../src/web/fleet-model.ts";

const item = (id: string, state = "running") =>
  ({
    Id: id,
    Names: [`/${id}`],
    Image: "local/app:1",
    Command: "sleep 1",
    Created: "2026-11-29T00:00:00.000Z",
    State: state,
    Status: state === "running" ? "Up 1 second" : "Exited (0) 1 second ago",
    Ports: [],
    Mounts: [],
    Labels: {},
  }) as unknown as ContainerItem;
const alpha = { id: 1, name: "alpha" };
const bravo = { id: 2, name: "bravo" };
const snapshot = (cluster: typeof alpha, ...ids: string[]): ContainerWatchLine => ({
  type: "snapshot",
  cluster,
  containers: ids.map((id) => item(id)),
});
const SYNCED: ContainerWatchLine = { type: "synced" };
const REOPENED = "reopened";

/** Each cluster's state and its rows' ids, in the order the views draw them. */
function shown(lines: Array<ContainerWatchLine | typeof REOPENED>): string[] {
  const fleet = new FleetModel();
  for (const line of lines)
    if (line === REOPENED) fleet.reopened();
    else fleet.apply(line);
  return fleet
    .view()
    .clusters.map(
      ({ cluster, state, rows }) =>
        `${cluster.name} ${state}: ${rows.map((row) => row.id).join(" ")}`,
    );
}

describe("the page's fleet, from the watch's lines", () => {
  it.each<[string, Array<ContainerWatchLine | typeof REOPENED>, string[]]>([
    [
      "each cluster's snapshot, in id order",
      [snapshot(bravo, "b1"), snapshot(alpha, "a1", "a2"), SYNCED],
      ["alpha live: a1 a2", "bravo live: b1"],
    ],
    [
      "a container added first, one modified in place, one removed",
      [
        snapshot(alpha, "a1", "a2"),
        { type: "added", cluster: alpha, container: item("a3") },
        { type: "modified", cluster: alpha, container: item("a1", "exited") },
        { type: "removed", cluster: alpha, id: "a2" },
      ],
      ["alpha live: a3 a1"],
    ],
    [
      "a removal of a container it never had changes nothing",
      [snapshot(alpha, "a1"), { type: "removed", cluster: alpha, id: "zz" }],
      ["alpha live: a1"],
    ],
    [
      "down keeps the last rows",
      [
        snapshot(alpha, "a1"),
        { type: "down", cluster: alpha, error: { code: "ENGINE_UNREACHABLE", message: "x" } },
      ],
      ["alpha down: a1"],
    ],
    [
      "a cluster first waiting has no rows",
      [{ type: "waiting", cluster: alpha }],
      ["alpha waiting: "],
    ],
    [
      "opened again: the last stream's clusters stay until the new one says otherwise",
      [snapshot(alpha, "a1"), snapshot(bravo, "b1"), SYNCED, REOPENED],
      ["alpha live: a1", "bravo live: b1"],
    ],
    [
      "opened again: synced drops the clusters the new stream did not name",
      [
        snapshot(alpha, "a1"),
        snapshot(bravo, "b1"),
        SYNCED,
        REOPENED,
        snapshot(alpha, "a2"),
        SYNCED,
      ],
      ["alpha live: a2"],
    ],
    [
      "opened again: a cluster named waiting keeps its rows until its snapshot",
      [snapshot(alpha, "a1"), SYNCED, REOPENED, { type: "waiting", cluster: alpha }, SYNCED],
      ["alpha waiting: a1"],
    ],
    [
      "a cluster that comes after synced is added, and a later synced drops nothing",
      [snapshot(alpha, "a1"), SYNCED, snapshot(bravo, "b1"), SYNCED],
      ["alpha live: a1", "bravo live: b1"],
    ],
    [
      "a stream that names no cluster, synced: none",
      [snapshot(alpha, "a1"), SYNCED, REOPENED, SYNCED],
      [],
    ],
  ])("%s", (_label, lines, expected) => {
    expect(shown(lines)).toEqual(expected);
  });

  it("says whether a line changed anything, and clear forgets every cluster", () => {
    const fleet = new FleetModel();
    expect(fleet.apply(snapshot(alpha, "a1"))).toBe(true);
    expect(fleet.apply({ type: "removed", cluster: alpha, id: "zz" })).toBe(false);
    expect(fleet.apply(SYNCED)).toBe(false);
    fleet.reopened();
    expect(fleet.apply(SYNCED)).toBe(true);
    fleet.apply(snapshot(bravo, "b1"));
    fleet.reopened();
    fleet.clear();
    // Nothing is left to drop either.
    expect(fleet.apply(SYNCED)).toBe(false);
    expect(fleet.view()).toEqual({ clusters: [], rows: [] });
  });
});
