import { afterAll, describe, expect, it } from "vitest";
import { readDiskUsage } from "../../src/core/clusters/disk-usage.ts";
import { readAllStats } from "../../src/core/containers/all-stats.ts";
import { readMergedLogs } from "../../src/core/containers/merged-logs.ts";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { parseFilters } from "../../src/core/engine/filters.ts";
import { dockerIds, engines } from "./helpers.ts";

/** Many containers at once on Podman's Docker-compatible API. */
const fleet = await loadFleet({ configPath: engines.podmanConfigPath });
afterAll(() => fleet.close());

describe("many containers at once on Podman", () => {
  it("samples every running container, as docker ps lists them", async () => {
    const body = await readAllStats({ fleet });
    expect(body.errors).toEqual([]);
    expect(body.stats.map((item) => item.container.id).sort()).toEqual(
      await dockerIds(engines.hostP, "ps", "-q", "--no-trunc"),
    );
  });

  it("merges logs, tagged and in time order", async () => {
    const { lines, errors } = await readMergedLogs({
      fleet,
      filters: parseFilters("containers", ["name=p-"]),
      query: { tail: 3 },
    });
    expect(errors).toEqual([]);
    expect(lines.filter((line) => line.container.name === "p-web")).toHaveLength(3);
    const times = lines.map((line) => line.time!);
    expect(times.every((time) => time !== null)).toBe(true);
  });

  it("gives its disk usage with docker system df's rows", async () => {
    const { summary } = await readDiskUsage("pod", { fleet });
    expect(summary.map((row) => row.type)).toEqual([
      "Images",
      "Containers",
      "Local Volumes",
      "Build Cache",
    ]);
    expect(summary[1]!.total).toBe((await dockerIds(engines.hostP, "ps", "-aq")).length);
  });
});
