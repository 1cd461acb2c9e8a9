import { describe, expect, it } from "vitest";
import { checkImageReference } from "../../src/core/names.ts";
import { parseTime } from "../../src/operations/time.ts";
import { summarizeStats, type EngineStats } from "../../src/core/containers/stats.ts";
import { matchRoute, parseQuery } from "../../src/server/match.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
/** A time without a zone, at the offset in force at NOW (docker's reading), in Unix seconds. */
const local = (...parts: [number, number, number, number?, number?, number?]) =>
  (Date.UTC(...parts) + new Date(NOW).getTimezoneOffset() * 60_000) / 1000;

describe("parseTime", () => {
  it.each([
    ["1763700000", 1763700000],
    ["1763700000.5", 1763700000.5],
    ["2026-11-21T11:00:00Z", NOW / 1000 - 3600],
    ["2026-11-21T13:00:00+02:00", NOW / 1000 - 3600],
    ["10m", NOW / 1000 - 600],
    ["1h30m", NOW / 1000 - 5400],
    ["2d", NOW / 1000 - 172800],
    ["500ms", NOW / 1000 - 0.5],
    // Before 1970, where every engine's record begins: 1970.
    ["100000000d", 0],
    // The forms docker logs --since takes beside RFC 3339; without a zone, local time as docker reads it.
    ["2026-11-21Z", Date.UTC(2026, 10, 21) / 1000],
    ["2026-11-21T10Z", Date.UTC(2026, 10, 21, 10) / 1000],
    ["2026-11-21T10:30+01:00", Date.UTC(2026, 10, 21, 9, 30) / 1000],
    ["2026-11-21T10:30:05.25Z", Date.UTC(2026, 10, 21, 10, 30, 5) / 1000 + 0.25],
    ["2026-11-21", local(2026, 10, 21)],
    ["2026-11-21T10", local(2026, 10, 21, 10)],
    ["2026-11-21T10:30", local(2026, 10, 21, 10, 30)],
    ["2026-02-28T23:59:59", local(2026, 1, 28, 23, 59, 59)],
  ])("%s → %d", (value, seconds) => {
    expect(parseTime("since", value, NOW)).toBeCloseTo(seconds, 6);
  });

  it.each([
    "",
    "yesterday",
    "-5",
    "1e9",
    "10 m",
    "2026-13-45T00:00:00Z",
    "2026-02-30",
    "2026-11-21T24:00",
    "2026-11-21T10:60",
    "2026-11-21 10:00",
    "99999999999999999999d",
    "1m1m1m1m1m1m",
  ])("rejects %j", (value) => {
    expect(() => parseTime("since", value, NOW)).toThrow(
      expect.objectContaining({ code: "INVALID_QUERY" }),
    );
  });
});

describe("summarizeStats, as docker stats computes it", () => {
  const base: EngineStats = {
    cpu_stats: {
      cpu_usage: { total_usage: 3_000_000_000 },
      system_cpu_usage: 120_000_000_000,
      online_cpus: 4,
    },
    precpu_stats: { cpu_usage: { total_usage: 1_000_000_000 }, system_cpu_usage: 100_000_000_000 },
    networks: { eth0: { rx_bytes: 100, tx_bytes: 10 }, eth1: { rx_bytes: 5, tx_bytes: 1 } },
    blkio_stats: {
      io_service_bytes_recursive: [
        { op: "Read", value: 4096 },
        { op: "Write", value: 100 },
        { op: "read", value: 4 },
        { op: "Total", value: 9 },
      ],
    },
    pids_stats: { current: 3 },
  };

  it("cgroup v1: memory less total_inactive_file", () => {
    const summary = summarizeStats({
      ...base,
      memory_stats: {
        usage: 10_000,
        limit: 100_000,
        stats: { total_inactive_file: 2_000, inactive_file: 1 },
      },
    });
    expect(summary).toEqual({
      cpuPercent: 40,
      memoryUsage: 8_000,
      memoryLimit: 100_000,
      memoryPercent: 8,
      netRx: 105,
      netTx: 11,
      blockRead: 4100,
      blockWrite: 100,
      pids: 3,
    });
  });

  it("cgroup v2: memory less inactive_file", () => {
    expect(
      summarizeStats({
        ...base,
        memory_stats: { usage: 10_000, limit: 20_000, stats: { inactive_file: 5_000 } },
      }),
    ).toMatchObject({ memoryUsage: 5_000, memoryPercent: 25 });
  });

  it("keeps usage when the cache is not below it, and CPUs from percpu_usage when online_cpus is absent", () => {
    const summary = summarizeStats({
      cpu_stats: { cpu_usage: { total_usage: 2, percpu_usage: [1, 1] }, system_cpu_usage: 4 },
      precpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 2 },
      memory_stats: { usage: 10, limit: 0, stats: { inactive_file: 50 } },
    });
    expect(summary).toMatchObject({
      cpuPercent: 100,
      memoryUsage: 10,
      memoryPercent: 0,
      pids: 0,
      netRx: 0,
      blockRead: 0,
    });
  });

  it("is all zeros for a stopped container's empty sample", () => {
    expect(Object.values(summarizeStats({}))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("checkImageReference", () => {
  it.each([
    ["busybox", "busybox"],
    ["local/busybox:1", "local%2Fbusybox%3A1"],
    [
      "registry.example:5000/team/app:v1.2-rc_3",
      "registry.example%3A5000%2Fteam%2Fapp%3Av1.2-rc_3",
    ],
    [`app@sha256:${"a".repeat(64)}`, `app%40sha256%3A${"a".repeat(64)}`],
    [`sha256:${"0".repeat(64)}`, `sha256%3A${"0".repeat(64)}`],
    ["29090e52f1d6", "29090e52f1d6"],
  ])("accepts %s", (reference, encoded) => {
    expect(checkImageReference(reference)).toBe(encoded);
  });

  it.each([
    "UPPER",
    "local/../x",
    "a?b",
    "a#b",
    "local//busybox",
    "-x",
    "app:",
    ":tag",
    "a b",
    "app:tag:again",
    "",
  ])("rejects %j", (reference) => {
    expect(() => checkImageReference(reference)).toThrow(
      expect.objectContaining({ code: "INVALID_NAME" }),
    );
  });
});

describe("matchRoute and parseQuery", () => {
  const routes = [
    { path: "/list/cluster" },
    { path: "/list/:cluster/containers" },
    { path: "/detail/:cluster/image/:imageName", rest: true },
  ];

  it.each([
    ["/list/cluster", "/list/cluster", {}],
    ["/list/prod/containers?all=1", "/list/:cluster/containers", { cluster: "prod" }],
    ["/list/a%2Fb/containers", "/list/:cluster/containers", { cluster: "a/b" }],
    ["/list/web%3Fall=1/containers", "/list/:cluster/containers", { cluster: "web?all=1" }],
    [
      "/detail/p/image/local/busybox:1",
      "/detail/:cluster/image/:imageName",
      { cluster: "p", imageName: "local/busybox:1" },
    ],
    [
      "/detail/p/image/local%2Fbusybox%3A1",
      "/detail/:cluster/image/:imageName",
      { cluster: "p", imageName: "local/busybox:1" },
    ],
  ])("%s matches %s", (url, path, params) => {
    expect(matchRoute(routes, url)).toEqual({ route: expect.objectContaining({ path }), params });
  });

  it.each(["/list", "/list/cluster/", "/list//containers", "/detail/p/image/", "/LIST/cluster"])(
    "%s matches nothing",
    (url) => {
      expect(matchRoute(routes, url)).toBeUndefined();
    },
  );

  it("rejects bad percent-encoding as INVALID_NAME", () => {
    expect(() => matchRoute(routes, "/list/%E0%A4%A/containers")).toThrow(
      expect.objectContaining({ code: "INVALID_NAME" }),
    );
  });

  it("reads a query once per name", () => {
    expect({ ...parseQuery("/x?tail=5&follow=true&since=").query }).toEqual({
      tail: "5",
      follow: "true",
      since: "",
    });
    expect({ ...parseQuery("/x").query }).toEqual({});
    expect({ ...parseQuery("/x?constructor=1").query }).toEqual({ constructor: "1" });
    // A plus is a plus, as in an RFC 3339 offset; a space is %20.
    expect({ ...parseQuery("/x?since=2026-11-22T10:00+01:00&ps_args=-o%20pid").query }).toEqual({
      since: "2026-11-22T10:00+01:00",
      ps_args: "-o pid",
    });
    expect(() => parseQuery("/x?tail=1&tail=2")).toThrow(
      expect.objectContaining({ code: "INVALID_QUERY" }),
    );
    const repeated = parseQuery(
      "/x?filter=label%3Da%3Db&tail=1&filter=status%3Drunning&cluster=1",
      ["filter", "cluster"],
    );
    expect({ ...repeated.query }).toEqual({ tail: "1" });
    expect({ ...repeated.lists }).toEqual({
      filter: ["label=a=b", "status=running"],
      cluster: ["1"],
    });
  });
});
