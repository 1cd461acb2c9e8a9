import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { readAllDiskUsage, readDiskUsage } from "../../src/core/clusters/disk-usage.ts";
import { humanSize } from "../../src/cli/render/format.ts";
import { alphaAndBravo, docker, engines, writeConfig } from "./helpers.ts";

/** The suite's endpoint that takes connections and never answers. */
const { clusters: suite } = JSON.parse(await readFile(engines.configPath, "utf8")) as {
  clusters: Array<{ name: string; host: string }>;
};
const hungHost = suite.find((cluster) => cluster.name === "hang")!.host;

/** Disk usage, as docker system df reports it, of one cluster and of every cluster. */
const fleet = await loadFleet({
  configPath: await writeConfig("disk-usage.json", {
    clusters: [
      ...alphaAndBravo(),
      { name: "hang", host: "tcp://127.0.0.1:9", timeoutMs: 300, diskUsageTimeoutMs: 600 },
      // Disk usage's long limit is longer than the test's: only the cluster's own may apply.
      { name: "hung", host: hungHost, timeoutMs: 300, diskUsageTimeoutMs: 60_000 },
    ],
  }),
});
afterAll(() => fleet.close());

describe("disk usage", () => {
  it("agrees with docker system df: each kind's total, active and size", async () => {
    const [ours, theirs] = await Promise.all([
      readDiskUsage("alpha", { fleet }),
      docker(engines.hostA, "system", "df", "--format", "{{json .}}"),
    ]);
    const rows = theirs.split("\n").map((line) => JSON.parse(line) as Record<string, string>);
    expect(ours.summary.map((row) => row.type)).toEqual(rows.map((row) => row.Type));
    for (const row of rows) {
      const mine = ours.summary.find((candidate) => candidate.type === row.Type)!;
      expect([String(mine.total), String(mine.active), humanSize(mine.size)]).toEqual([
        row.TotalCount,
        row.Active,
        row.Size,
      ]);
      expect(mine.reclaimable).toBeLessThanOrEqual(mine.size);
    }
    expect(Array.isArray(ours.raw.Images)).toBe(true);
  });

  it("asks for the kinds wanted only, and shares one engine call among concurrent requests", async () => {
    const slot = fleet.slot(fleet.config.clusters[0]!);
    const before = slot.calls;
    const [one, two] = await Promise.all([
      readDiskUsage("alpha", { fleet, types: ["volume"] }),
      readDiskUsage("alpha", { fleet, types: ["volume", "volume"] }),
    ]);
    expect(one.summary.map((row) => row.type)).toEqual(["Local Volumes"]);
    expect(one.raw.Volumes?.length).toBeGreaterThan(0);
    // An engine of API 1.42 or later leaves out what was not asked for; an older one is asked for all.
    const api = await docker(engines.hostA, "version", "--format", "{{.Server.APIVersion}}");
    const narrows = Number(api.split(".")[1]) >= 42;
    expect(one.raw.Images === undefined || one.raw.Images === null).toBe(narrows);
    expect(two).toEqual(one);
    // One version read and one /system/df, whatever the number of callers.
    expect(slot.calls - before).toBeLessThanOrEqual(2);
  });

  it("across clusters: each cluster's, in id order; one that fails is an errors entry under its own limit", async () => {
    const body = await readAllDiskUsage({ fleet });
    expect(body.clusters.map((entry) => entry.cluster.name)).toEqual(["alpha", "bravo"]);
    expect(body.errors.map(({ cluster, error }) => [cluster.name, error.code])).toEqual([
      ["hang", expect.stringMatching(/^ENGINE_(TIMEOUT|UNREACHABLE)$/)],
      ["hung", "ENGINE_TIMEOUT"],
    ]);
    const bravo = body.clusters[1]!.summary.find((row) => row.type === "Local Volumes")!;
    expect(bravo.total).toBe(
      (await docker(engines.adminB, "volume", "ls", "-q")).split("\n").filter(Boolean).length,
    );
  });

  it("of an engine that does not answer at all fails at the cluster's time limit, not disk usage's", async () => {
    await expect(readDiskUsage("hung", { fleet })).rejects.toMatchObject({
      code: "ENGINE_TIMEOUT",
      message: expect.stringMatching(/did not answer within 300 ms$/),
    });
  });

  it("refuses a kind it does not know", async () => {
    const { decode } = await import("../../src/operations/decode.ts");
    const { clusterDiskUsage } = await import("../../src/operations/selection.ts");
    expect(() => decode(clusterDiskUsage.route!.query!, { type: ["images"] })).toThrow(
      /type: expected image, container/,
    );
  });
});
