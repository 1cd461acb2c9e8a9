import { describe, expect, it } from "vitest";
import { compileContainerFilters, type FilteredItem } from "../../src/core/hub/container-filter.ts";
import type { EngineFilters } from "../../src/core/engine/filters.ts";
import type { StateTimes } from "../../src/core/hub/status-text.ts";

/** Docker's container filters applied to a mirrored item, as moby's list applies them (issue 28). */
const web: FilteredItem = {
  Id: "ab12cd34ef56",
  Names: ["/shop-web-1", "/other/web"],
  Labels: { "com.docker.compose.project": "shop", tier: "web", alerting: "yes" },
  State: "running",
  Status: "Up 2 hours (healthy)",
};
const crashed: FilteredItem = { ...web, State: "exited", Status: "Exited (3) 5 seconds ago" };
const created: FilteredItem = { ...web, State: "created", Status: "Created" };
const dead: FilteredItem = { ...web, State: "dead", Status: "Dead" };
const plain: FilteredItem = { ...web, Status: "Up 2 hours", Labels: null };

describe("the container filters applied to a mirrored item", () => {
  const cases: Array<
    [string, EngineFilters | undefined, FilteredItem, boolean | undefined, StateTimes?]
  > = [
    ["no filters", undefined, web, true],
    ["a label key", { label: ["tier"] }, web, true],
    ["a label key=value", { label: ["tier=web"] }, web, true],
    ["a label with another value", { label: ["tier=db"] }, web, false],
    ["every label must hold", { label: ["tier=web", "missing"] }, web, false],
    ["labels null", { label: ["tier"] }, plain, false],
    ["a name, with or without its slash", { name: ["shop-web-1"] }, web, true],
    ["a name as an unanchored pattern", { name: ["web"] }, web, true],
    ["an anchored name pattern", { name: ["^web"] }, web, false],
    ["a link's name is not the container's", { name: ["^/other"] }, web, false],
    ["one of two names", { name: ["db", "shop"] }, web, true],
    ["an id prefix", { id: ["ab12"] }, web, true],
    ["another id", { id: ["ff00"] }, web, false],
    ["a pattern RE2 does not read matches nothing", { name: ["(a"] }, web, false],
    ["status running", { status: ["running"] }, web, true],
    ["status exited of a running one", { status: ["exited"] }, web, false],
    ["status exited", { status: ["exited"] }, crashed, true],
    ["exited with its code", { exited: ["3"] }, crashed, true],
    ["exited with another code", { exited: ["0"] }, crashed, false],
    ["exited of a running one", { exited: ["3"] }, web, false],
    ["exited of one never started", { exited: ["0"] }, created, false],
    ["exited of a dead one: the engine tells", { exited: ["3"] }, dead, undefined],
    ["health of a running one", { health: ["healthy"] }, web, true],
    ["health none", { health: ["none"] }, plain, true],
    ["health unhealthy", { health: ["unhealthy"] }, web, false],
    [
      "health starting",
      { health: ["starting"] },
      { ...web, Status: "Up 1 second (health: starting)" },
      true,
    ],
    ["health of a stopped one: the engine tells", { health: ["none"] }, crashed, undefined],
    [
      "health of a stopped one from its inspect",
      { health: ["unhealthy"] },
      crashed,
      true,
      { Health: { Status: "unhealthy" } },
    ],
    ["no health check, from its inspect", { health: ["none"] }, crashed, true, {}],
    ["keys together", { label: ["alerting=yes"], status: ["running"], name: ["web"] }, web, true],
    ["a failing key among others", { label: ["alerting=yes"], status: ["paused"] }, web, false],
  ];
  it.each(cases)("%s", async (_, filters, item, expected, state) => {
    const test = await compileContainerFilters(filters);
    expect(test?.(item, state)).toBe(expected);
  });

  it.each([
    ["ancestor"],
    ["network"],
    ["volume"],
    ["publish"],
    ["expose"],
    ["before"],
    ["since"],
    ["is-task"],
    ["isolation"],
  ])("leaves %s to the engine", async (key) => {
    expect(await compileContainerFilters({ label: ["tier"], [key]: ["x"] })).toBeUndefined();
  });
});
