import { describe, expect, it } from "vitest";
import type { ClusterConfig } from "../../src/core/config/cluster-config.ts";
import { callEngine } from "../../src/core/engine/engine.ts";
import type { EngineSlot, Fleet } from "../../src/core/engine/fleet.ts";
import {
  readKey,
  shareBody,
  type EngineRead,
  type ReadKey,
} from "../../src/core/engine/shared-reads.ts";
import { Coalescer, Limiter } from "../../src/core/flow.ts";

describe("readKey", () => {
  // Each asks for something else: no two may share a key.
  const distinct: Array<[string, EngineRead]> = [
    ["a container", { kind: "container", name: "web" }],
    ["another container", { kind: "container", name: "db" }],
    ["an image of the same name", { kind: "image", name: "web" }],
    ["a volume of the same name", { kind: "volume", name: "web" }],
    ["a network of the same name", { kind: "network", name: "web" }],
    ["a name that looks like a key", { kind: "container", name: '["container","web"]' }],
    ["the container list", { kind: "containers", filters: undefined }],
    ["the running containers", { kind: "containers", filters: { status: ["running"] } }],
    ["the exited containers", { kind: "containers", filters: { status: ["exited"] } }],
    [
      "running or exited containers",
      { kind: "containers", filters: { status: ["running", "exited"] } },
    ],
    [
      "running containers with a label",
      { kind: "containers", filters: { status: ["running"], label: ["app"] } },
    ],
    ["one label with a comma", { kind: "containers", filters: { label: ["a,b"] } }],
    ["two labels", { kind: "containers", filters: { label: ["a", "b"] } }],
    ["a filter key with no values", { kind: "containers", filters: { label: [] } }],
    ["the container list with sizes", { kind: "containers", filters: undefined, size: true }],
    [
      "the running containers with sizes",
      { kind: "containers", filters: { status: ["running"] }, size: true },
    ],
    ["the image list", { kind: "images", filters: undefined }],
    ["the dangling images", { kind: "images", filters: { dangling: ["true"] } }],
    ["the dangling volumes", { kind: "volumes", filters: { dangling: ["true"] } }],
    ["the volume list", { kind: "volumes", filters: undefined }],
    ["the network list", { kind: "networks", filters: undefined }],
    ["the version", { kind: "version" }],
    ["the info", { kind: "info" }],
    [
      "the container list of clusters 1 and 2",
      { kind: "across", read: { kind: "containers", filters: undefined }, clusters: [1, 2] },
    ],
    [
      "the container list of cluster 1",
      { kind: "across", read: { kind: "containers", filters: undefined }, clusters: [1] },
    ],
    [
      "the image list of clusters 1 and 2",
      { kind: "across", read: { kind: "images", filters: undefined }, clusters: [1, 2] },
    ],
  ];

  it.each(distinct)("gives %s a key of its own", (_label, read) => {
    const others = distinct
      .filter(([, other]) => other !== read)
      .map(([, other]) => readKey(other));
    expect(others).not.toContain(readKey(read));
  });

  // Each pair asks the engine for the same list: docker reads filters as sets.
  const same: Array<[string, EngineRead, EngineRead]> = [
    [
      "filter keys in another order",
      { kind: "containers", filters: { status: ["running"], label: ["app"] } },
      { kind: "containers", filters: { label: ["app"], status: ["running"] } },
    ],
    [
      "values in another order",
      { kind: "containers", filters: { status: ["running", "exited"] } },
      { kind: "containers", filters: { status: ["exited", "running"] } },
    ],
    [
      "a value given twice",
      { kind: "images", filters: { label: ["a", "a"] } },
      { kind: "images", filters: { label: ["a"] } },
    ],
    [
      "size false and no size",
      { kind: "containers", filters: undefined, size: false },
      { kind: "containers", filters: undefined },
    ],
    [
      "empty filters and none",
      { kind: "networks", filters: {} },
      { kind: "networks", filters: undefined },
    ],
  ];

  it.each(same)("gives reads that differ only by %s one key", (_label, a, b) => {
    expect(readKey(a)).toBe(readKey(b));
  });

  it("is the only way to a key the engine's reads take (tsc checks these lines)", () => {
    // @ts-expect-error: a list says its filters, even none.
    expect(() => readKey({ kind: "containers" })).not.toThrow();
    // @ts-expect-error: an inspect says its name.
    expect(() => readKey({ kind: "container" })).not.toThrow();
    // @ts-expect-error: a string is no key.
    const key: ReadKey = "containers";
    expect(key).toBe("containers");
    // @ts-expect-error: nor does the engine's coalescer take one.
    void new Coalescer<ReadKey>().run("containers", async () => 1);
  });
});

describe("shared bodies", () => {
  it("are frozen throughout in tests, so that a change throws", () => {
    const body = shareBody({
      containers: [
        { Names: ["/web"], Labels: { app: "web" }, Size: 2n ** 64n },
        { Names: ["/db"], Labels: {}, Size: 0n },
      ],
      running: [],
    });
    expect(() => body.containers.push(body.containers[0]!)).toThrow(TypeError);
    expect(() => body.containers.sort()).toThrow(TypeError);
    expect(() => (body.containers[0]!.Labels.app = "db")).toThrow(TypeError);
    expect(() => delete (body as { running?: unknown }).running).toThrow(TypeError);
    expect(body.containers[0]!.Size).toBe(2n ** 64n);
  });

  it("leave bytes and text as they are", () => {
    expect(shareBody("text")).toBe("text");
    const bytes = Buffer.from("ab");
    expect(shareBody({ bytes }).bytes).toBe(bytes);
    expect(Object.isFrozen(bytes)).toBe(false);
  });

  it("are what callEngine hands every caller of one read: the same body, frozen", async () => {
    const cluster = { id: 1, name: "a", timeoutMs: 1000 } as ClusterConfig;
    const slot: EngineSlot = {
      limiter: new Limiter(4),
      samples: new Limiter(4),
      reads: new Coalescer<ReadKey>(),
      calls: 0,
      failures: new Map(),
      closing: new AbortController().signal,
    };
    // A fleet as callEngine sees one, its engine a stand-in that the read never uses.
    const fleet = { config: { clusters: [cluster] }, slot: () => slot, engine: async () => ({}) };
    let calls = 0;
    const read = (filters: Record<string, string[]>) =>
      callEngine(cluster, async () => ({ items: [++calls] }), {
        fleet: fleet as unknown as Fleet,
        read: { kind: "containers", filters },
      });
    const [a, b, other] = await Promise.all([
      read({ status: ["running"], label: ["x"] }),
      read({ label: ["x"], status: ["running"] }),
      read({ status: ["exited"] }),
    ]);
    expect(a).toBe(b);
    expect(other).not.toBe(a);
    expect(calls).toBe(2);
    expect(Object.isFrozen(a.items)).toBe(true);
  });
});
