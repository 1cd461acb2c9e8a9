import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TUNING,
  namesNodeCluster,
  toClusterConfig,
} from "../../src/core/config/cluster-config.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { loadConfig } from "../../src/core/config/config.ts";
import { parseEndpoint } from "../../src/core/config/endpoint.ts";
import { createFleet, narrowFleet } from "../../src/core/engine/fleet.ts";
import { syncNodeClusters } from "../../src/core/node/node-clusters.ts";
import { certificates } from "../support/certificates.ts";

const local = toClusterConfig(
  { id: 1, name: "home", host: "/run/docker.sock" },
  parseEndpoint("/run/docker.sock"),
  DEFAULT_TUNING,
);
const endpoint = { protocol: "http" as const, hostname: "127.0.0.1", port: 8080 };
const edge = { name: "edge", via: "http://127.0.0.1:8080" };
const down = { error: { code: "ENGINE_UNREACHABLE" as const, message: "connection refused" } };
const fleetOf = () =>
  createFleet({ clusters: [local], showSecrets: false, source: null, warnings: [] });
const names = (fleet: ReturnType<typeof fleetOf>) =>
  fleet.config.clusters.map((cluster) => `${cluster.id} ${cluster.name}`);

describe("syncNodeClusters", () => {
  it("adds a node's clusters as <node>.<cluster> after the others, ids after theirs", () => {
    const fleet = fleetOf();
    syncNodeClusters(fleet, edge, { clusters: [{ name: "alpha" }, { name: "bravo" }] }, endpoint);
    expect(names(fleet)).toEqual(["1 home", "2 edge.alpha", "3 edge.bravo"]);
    expect(fleet.config.clusters[1]).toMatchObject({
      source: "node",
      node: { name: "edge", cluster: "alpha" },
    });
  });

  it("keeps a cluster's id and object, drops what the node no longer offers", () => {
    const fleet = fleetOf();
    syncNodeClusters(fleet, edge, { clusters: [{ name: "alpha" }, { name: "bravo" }] }, endpoint);
    const alpha = fleet.config.clusters[1];
    syncNodeClusters(fleet, edge, { clusters: [{ name: "alpha" }, { name: "charlie" }] }, endpoint);
    expect(names(fleet)).toEqual(["1 home", "2 edge.alpha", "4 edge.charlie"]);
    expect(fleet.config.clusters[1]).toBe(alpha);
  });

  it("marks a node's clusters down and keeps them; a node never reached is one entry", () => {
    const fleet = fleetOf();
    syncNodeClusters(fleet, { name: "ghost", via: "http://x" }, down, endpoint);
    expect(names(fleet)).toEqual(["1 home", "2 ghost"]);
    expect(fleet.config.clusters[1]!.node).toMatchObject({ error: down.error });
    expect(fleet.config.clusters[1]!.node!.cluster).toBeUndefined();
    syncNodeClusters(fleet, edge, { clusters: [{ name: "alpha" }] }, endpoint);
    syncNodeClusters(fleet, edge, down, endpoint);
    expect(names(fleet)).toEqual(["1 home", "2 ghost", "3 edge.alpha"]);
    expect(fleet.config.clusters[2]!.node).toMatchObject({ error: down.error, cluster: "alpha" });
    syncNodeClusters(
      fleet,
      { name: "ghost", via: "http://x" },
      { clusters: [{ name: "a" }] },
      endpoint,
    );
    expect(names(fleet)).toEqual(["1 home", "3 edge.alpha", "4 ghost.a"]);
  });

  it("is followed by the views of scoped tokens", () => {
    const fleet = fleetOf();
    const view = narrowFleet(fleet, (cluster) => cluster.name.startsWith("edge."));
    expect(view.config.clusters).toEqual([]);
    syncNodeClusters(fleet, edge, { clusters: [{ name: "alpha" }] }, endpoint);
    expect(view.config.clusters.map((cluster) => cluster.name)).toEqual(["edge.alpha"]);
    expect(view.config.clusters).toBe(view.config.clusters);
  });
});

describe("a config's nodes", () => {
  const config = (nodes: unknown) => () =>
    normalizeConfig({ clusters: [{ name: "home", host: "/run/docker.sock" }], nodes }, "x");
  it.each([
    [[{ name: "ed.ge", url: "http://h:1", token: { env: "T" } }], /nodes\[0\]\.name: expected/],
    [[{ name: "edge", url: "ftp://h", token: { env: "T" } }], /nodes\[0\]\.url: expected/],
    [[{ name: "edge", url: "http://h:1/x", token: { env: "T" } }], /nodes\[0\]\.url: expected/],
    [[{ name: "edge", url: "http://h:1", token: "abc" }], /nodes\[0\]\.token: expected/],
    [[{ name: "edge", url: "http://h:1" }], /nodes\[0\]\.token/],
    [
      [
        { name: "edge", url: "http://h:1", token: { env: "T" } },
        { name: "edge", url: "http://h:2", token: { env: "T" } },
      ],
      /nodes\[1\]\.name: duplicate/,
    ],
  ])("refuses %j", (nodes, message) => {
    expect(config(nodes)).toThrow(message);
  });

  it("takes nodes alone, and does not warn of a token glob of a node's clusters", () => {
    const loaded = normalizeConfig(
      {
        nodes: [{ name: "edge", url: "https://e:8080/", token: { file: "/t" } }],
        tokens: [{ name: "t", env: "T", clusters: ["edge.*"] }],
      },
      "x",
      {},
    );
    expect(loaded.nodes).toEqual([{ name: "edge", url: "https://e:8080", token: { file: "/t" } }]);
    expect(loaded.warnings.filter((line) => line.includes("edge"))).toEqual([]);
  });

  it("examples/nodes: the node's and the hub's configs load", async () => {
    const dir = join(import.meta.dirname, "../../examples/nodes");
    const node = await loadConfig({ configPath: join(dir, "node.config.yaml") });
    expect(node.tokens?.map((token) => token.name)).toEqual(["hub-1"]);
    // The node's CA is checked when the hub's config loads: put a real one where it names it.
    const temp = await mkdtemp(join(tmpdir(), "docklens-nodes-"));
    try {
      await certificates(temp, "edge-ca", []);
      const text = await readFile(join(dir, "hub.config.yaml"), "utf8");
      await writeFile(join(temp, "hub.config.yaml"), text.replaceAll("/etc/docklens/", `${temp}/`));
      const hub = await loadConfig({ configPath: join(temp, "hub.config.yaml") });
      expect(hub.nodes?.map((each) => [each.name, each.url])).toEqual([
        ["edge", "https://edge.example:8080"],
      ]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });
});

describe("a reference to a node's cluster (token globs, alert rules)", () => {
  const nodes = [{ name: "edge" }, { name: "far" }];
  it.each([
    ["edge.web", true],
    ["edge.*", true],
    ["far.alpha", true],
    ["edge", false],
    ["edgeway.web", false],
    ["*.web", false],
    ["home", false],
  ])("%s: %s", (ref, ofNode) => {
    expect(namesNodeCluster(ref, nodes)).toBe(ofNode);
  });
});
