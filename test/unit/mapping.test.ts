import { describe, expect, it } from "vitest";
import {
  redactEnv,
  toContainerItem,
  type EngineContainerItem,
} from "../../src/core/containers/containers.ts";
import { checkName } from "../../src/core/names.ts";
import { splitColumns } from "../../src/core/containers/processes.ts";
import { detailIndex } from "../../src/operations/table.ts";
import {
  byName,
  normalizeVolume,
  toUtcSeconds,
  type EngineVolume,
} from "../../src/core/objects/volumes.ts";

describe("toContainerItem", () => {
  it.each([
    [0, "1970-01-01T00:00:00.000Z"],
    [1763700000, "2025-11-21T04:40:00.000Z"],
  ])("turns Created %d into %s and keeps the rest", (created, iso) => {
    const item = {
      Id: "abc",
      Names: ["/x"],
      Image: "local/app:1",
      Created: created,
      State: "running",
      Ports: [],
      Mounts: [],
      Labels: {},
      HostConfig: { NetworkMode: "n" },
      NetworkSettings: { Networks: { n: {} } },
    } as unknown as EngineContainerItem;
    expect(toContainerItem(item)).toEqual({
      Id: "abc",
      Names: ["/x"],
      Image: "local/app:1",
      Created: iso,
      State: "running",
      Ports: [],
      Mounts: [],
      Labels: {},
      HostConfig: { NetworkMode: "n" },
      NetworkSettings: { Networks: { n: {} } },
    });
  });

  it("gives what Podman sends otherwise Docker's shape", () => {
    const podman = {
      Id: "abc",
      Names: ["/x"],
      Image: "docker.io/local/app:1",
      Created: 0,
      State: "stopped",
      Ports: null,
      Mounts: null,
      Labels: null,
      NetworkSettings: { Networks: { podman: {} } },
    };
    expect(toContainerItem(podman as unknown as EngineContainerItem)).toEqual({
      Id: "abc",
      Names: ["/x"],
      Image: "local/app:1",
      Created: "1970-01-01T00:00:00.000Z",
      State: "exited",
      Ports: [],
      Mounts: [],
      Labels: {},
      HostConfig: { NetworkMode: "podman" },
      NetworkSettings: { Networks: { podman: {} } },
    });
  });

  it.each([
    ["none", "none"],
    [undefined, "default"],
  ])("gives Podman's container without a network Docker's shape, mode %s", (mode, expected) => {
    const podman = {
      Id: "abc",
      Names: ["/x"],
      Image: "sha256:" + "ab".repeat(32),
      Created: 0,
      State: "running",
      Ports: [],
      Mounts: [],
      Labels: {},
      NetworkSettings: { Networks: null },
    };
    expect(toContainerItem(podman as unknown as EngineContainerItem, mode)).toMatchObject({
      Image: "sha256:" + "ab".repeat(32),
      HostConfig: { NetworkMode: expected },
      NetworkSettings: { Networks: {} },
    });
  });
});

describe("splitColumns: Podman's top, one string a line, in Docker's columns", () => {
  it.each([
    [
      {
        Titles: ["PID   USER     COMMAND"],
        Processes: [["1 0        sh -c while true; do echo hi; sleep 1; done"]],
      },
      {
        Titles: ["PID", "USER", "COMMAND"],
        Processes: [["1", "0", "sh -c while true; do echo hi; sleep 1; done"]],
      },
    ],
    [
      { Titles: ["UID", "PID", "CMD"], Processes: [["root", "1", "sleep 1"]] },
      { Titles: ["UID", "PID", "CMD"], Processes: [["root", "1", "sleep 1"]] },
    ],
    [
      { Titles: ["PID"], Processes: [["1"]] },
      { Titles: ["PID"], Processes: [["1"]] },
    ],
    [
      { Titles: [], Processes: [] },
      { Titles: [], Processes: [] },
    ],
  ])("%j", (top, expected) => {
    expect(splitColumns(top)).toEqual(expected);
  });
});

describe("normalizeVolume", () => {
  it.each([
    [
      "null labels become {}",
      { Name: "v", Labels: null, Options: null, CreatedAt: "2026-01-02T03:04:05Z" },
      { Name: "v", Labels: {}, Options: null, CreatedAt: "2026-01-02T03:04:05Z" },
    ],
    [
      "an offset becomes UTC",
      { Name: "v", Labels: { a: "" }, Options: { o: "x" }, CreatedAt: "2026-01-02T04:04:05+01:00" },
      { Name: "v", Labels: { a: "" }, Options: { o: "x" }, CreatedAt: "2026-01-02T03:04:05Z" },
    ],
    ["no CreatedAt stays absent", { Name: "v", Labels: {} }, { Name: "v", Labels: {} }],
  ])("%s", (_label, input, expected) => {
    expect(normalizeVolume(input as unknown as EngineVolume)).toEqual(expected);
  });

  it.each([
    ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05Z"],
    ["2026-01-02T03:04:05.123456789Z", "2026-01-02T03:04:05Z"],
    ["2026-01-01T22:04:05-05:00", "2026-01-02T03:04:05Z"],
    ["not a date", "not a date"],
  ])("toUtcSeconds(%s) is %s", (input, output) => {
    expect(toUtcSeconds(input)).toBe(output);
  });
});

describe("redactEnv", () => {
  it.each([
    ["DB_PASSWORD=hunter2", "DB_PASSWORD=<redacted>"],
    ["api_token=x", "api_token=<redacted>"],
    ["AWS_SECRET_ACCESS_KEY=x=y", "AWS_SECRET_ACCESS_KEY=<redacted>"],
    ["SSH_KEY=", "SSH_KEY=<redacted>"],
    ["GIT_CREDENTIALS=x", "GIT_CREDENTIALS=<redacted>"],
    ["OAUTH_CLIENT=x", "OAUTH_CLIENT=<redacted>"],
    ["PATH=/bin", "PATH=/bin"],
    ["VALUE_HAS_PASSWORD=ok", "VALUE_HAS_PASSWORD=<redacted>"],
    ["PLAIN=my password", "PLAIN=my password"],
    ["NOEQUALS", "NOEQUALS"],
  ])("%s → %s", (input, output) => {
    expect(redactEnv([input])).toEqual([output]);
  });
});

describe("checkName", () => {
  it.each([
    ["container", "web", "web"],
    ["container", "/web", "web"],
    ["container", "my_app.1-2", "my_app.1-2"],
    ["volume", "a".repeat(64), "a".repeat(64)],
    ["network", "0123abcdef", "0123abcdef"],
  ] as const)("accepts %s %s", (kind, name, encoded) => {
    expect(checkName(kind, name)).toBe(encoded);
  });

  it.each([
    ["container", "../../images/json"],
    ["container", "web?all=1"],
    ["container", "%2e%2e"],
    ["container", ".."],
    ["container", "a/b"],
    ["container", "//web"],
    ["volume", "/data"],
    ["network", "-net"],
    ["network", "net work"],
    ["network", ""],
    ["volume", "é"],
    ["volume", "a".repeat(256)],
  ] as const)("rejects %s %j", (kind, name) => {
    expect(() => checkName(kind, name)).toThrow(
      expect.objectContaining({ code: "INVALID_NAME", status: 400 }),
    );
  });

  it("says that a long name is refused for its length, and which limit", () => {
    expect(() => checkName("cluster", "a".repeat(300))).toThrow(
      /^invalid cluster name "a{80}": 300 characters, longer than the 255 a name may have$/,
    );
  });
});

describe("the detail index", () => {
  it("lists the nine detail routes of the route table with their params, in its order", async () => {
    const { routes } = await detailIndex();
    expect(routes.map((route) => [route.path, route.params.join(",")])).toEqual([
      ["/detail/cluster/:clusterid", "clusterid"],
      ["/detail/:cluster/container/:containerName", "cluster,containerName"],
      ["/detail/:cluster/container/:containerName/attach", "cluster,containerName"],
      ["/detail/:cluster/container/:containerName/process", "cluster,containerName"],
      ["/detail/:cluster/container/:containerName/logs", "cluster,containerName"],
      ["/detail/:cluster/container/:containerName/stats", "cluster,containerName"],
      ["/detail/:cluster/image/:imageName", "cluster,imageName"],
      ["/detail/:cluster/volume/:volumeName", "cluster,volumeName"],
      ["/detail/:cluster/network/:networkName", "cluster,networkName"],
    ]);
    expect(routes.every((route) => route.methods.length === 1 && route.methods[0] === "GET")).toBe(
      true,
    );
  });
});

describe("byName", () => {
  it("orders items by Name, as docker volume ls and network ls do", () => {
    expect(
      [{ Name: "b" }, { Name: "a-1" }, { Name: "B" }, { Name: "a" }]
        .sort(byName)
        .map((item) => item.Name),
    ).toEqual(["B", "a", "a-1", "b"]);
  });
});
