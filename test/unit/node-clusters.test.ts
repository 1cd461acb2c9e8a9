import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TUNING,
  namesNodeCluster,
  toClusterConfig,
} from "../../src/core/config/cluster-config.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { loadConfig } from "../../src/core/config/config.ts";
import { parseEndpoint } from "../../src/core/config/endpoint.ts";
import { createFleet, narrowFleet } from "../../src/core/engine/fleet.ts";
import { resolveDataDir } from "../../src/core/config/data-dir.ts";
import { syncNodeClusters } from "../../src/core/node/node-clusters.ts";
import { openRememberedNodes } from "../../src/core/node/remembered-nodes.ts";
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

describe("syncNodeClusters with the hub's memory (D22)", () => {
  const far = { name: "far", via: "http://127.0.0.1:8081" };
  const offers = { clusters: [{ name: "alpha" }, { name: "bravo" }] };
  const withMemory = async (fn: (dir: string) => void) => {
    const dir = await mkdtemp(join(tmpdir(), "docklens-memory-"));
    try {
      fn(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  /** An earlier run that reached edge, remembered in `dir`. */
  const reachedOnce = (dir: string) =>
    syncNodeClusters(
      fleetOf(),
      edge,
      offers,
      endpoint,
      openRememberedNodes(dir, () => {}),
    );

  it("gives a node cluster the same id in every run, whichever node answers first", () =>
    withMemory((dir) => {
      const first = fleetOf();
      const memory = openRememberedNodes(dir, () => {});
      syncNodeClusters(first, edge, offers, endpoint, memory);
      syncNodeClusters(first, far, offers, endpoint, memory);
      const next = fleetOf();
      // Another process, another order.
      const again = openRememberedNodes(dir, () => {});
      syncNodeClusters(next, far, offers, endpoint, again);
      syncNodeClusters(next, edge, offers, endpoint, again);
      expect(names(next)).toEqual(names(first));
      expect(names(next)).toEqual([
        "1 home",
        "2 edge.alpha",
        "3 edge.bravo",
        "4 far.alpha",
        "5 far.bravo",
      ]);
    }));

  it("lists the clusters a node had when it cannot be reached now, each with the error", () =>
    withMemory((dir) => {
      reachedOnce(dir);
      const fleet = fleetOf();
      syncNodeClusters(
        fleet,
        edge,
        down,
        endpoint,
        openRememberedNodes(dir, () => {}),
      );
      expect(names(fleet)).toEqual(["1 home", "2 edge.alpha", "3 edge.bravo"]);
      expect(fleet.config.clusters[1]!.node).toMatchObject({
        cluster: "alpha",
        error: down.error,
        seen: expect.stringMatching(/^\d{4}-/),
      });
    }));

  it("gives a new id when a local cluster took the remembered one, and says when it cannot write", () =>
    withMemory((dir) => {
      reachedOnce(dir);
      const two = toClusterConfig(
        { id: 2, name: "work", host: "/run/work.sock" },
        parseEndpoint("/run/work.sock"),
        DEFAULT_TUNING,
      );
      const fleet = createFleet({
        clusters: [local, two],
        showSecrets: false,
        source: null,
        warnings: [],
      });
      syncNodeClusters(
        fleet,
        edge,
        offers,
        endpoint,
        openRememberedNodes(dir, () => {}),
      );
      expect(names(fleet)).toEqual(["1 home", "2 work", "3 edge.bravo", "4 edge.alpha"]);
      const warnings: string[] = [];
      const blocked = openRememberedNodes(join(dir, "nodes.json", "x"), (w) => warnings.push(w));
      syncNodeClusters(fleetOf(), far, offers, endpoint, blocked);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/node cluster ids are not remembered in /);
    }));

  it("keeps the data directory where --data-dir, DOCKLENS_DATA_DIR or XDG_DATA_HOME says", () => {
    vi.stubEnv("XDG_DATA_HOME", "/x/data");
    vi.stubEnv("DOCKLENS_DATA_DIR", "");
    expect(resolveDataDir()).toBe("/x/data/docklens");
    vi.stubEnv("DOCKLENS_DATA_DIR", "/y");
    expect(resolveDataDir()).toBe("/y");
    expect(resolveDataDir({ dataDir: "/z" })).toBe("/z");
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
