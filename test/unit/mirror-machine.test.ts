import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Fleet } from "../../src/core/engine/fleet.ts";
import {
  followMirror,
  mirrorState,
  mirrorStatus,
  readMirror,
} from "../../src/core/hub/container-mirror.ts";
import { hubStreams } from "../../src/core/hub/event-hub.ts";
import { MemoryEngine, memoryFleet, type MemoryContainer } from "./support/memory-engine.ts";

/**
 * The container mirror's state machine in-process: list-then-watch over an in-memory engine
 * (support/memory-engine.ts) under fake timers, so that its 30 s grace, 5-minute re-list and
 * reconnection backoff take no time. Its real-engine side is test/integration/mirror-*.test.ts.
 */
const T0 = Date.parse("2026-12-07T10:00:00.000Z");
let engine: MemoryEngine;
let fleet: Fleet;
beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  // Jitter drawn at its top: each backoff wait is the whole step.
  vi.spyOn(Math, "random").mockReturnValue(1);
  engine = new MemoryEngine();
  fleet = memoryFleet(engine);
});
afterEach(() => {
  fleet.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const cluster = () => fleet.config.clusters[0]!;
/** What a reader of the mirror is served: `name status`, in list order. */
const read = () =>
  readMirror(cluster(), { fleet }, (containers) =>
    containers.map(({ item, status }) => `${(item.Names as string[])[0]!.slice(1)} ${status}`),
  );
/** Containers of the mirror whose inspect body came. */
const inspected = () => mirrorState(cluster(), { fleet })?.inspected;
/** Let `ms` of fake time pass, and what it set off (a batch of events re-read, inspects) settle. */
const pass = (ms = 100) => vi.advanceTimersByTimeAsync(ms);
const iso = () => new Date(Date.now()).toISOString();
const running = (id: string, name: string): MemoryContainer => ({
  id,
  name,
  state: "running",
  startedAt: new Date(T0 - 300_000).toISOString(),
});

/** An engine step: the engine changes, and tells it on its event stream (or does not: quiet). */
type Step = (engine: MemoryEngine) => void;
const find = (id: string) => engine.containers.find((one) => one.id === id)!;
const steps: Record<string, (id: string) => Step> = {
  create: (id) => (e) => {
    e.containers.unshift({ id, name: `n-${id}`, state: "created" });
    e.event("create", id);
  },
  start: (id) => (e) => {
    Object.assign(find(id), { state: "running", startedAt: iso() });
    e.event("start", id);
  },
  die: (id) => (e) => {
    Object.assign(find(id), { state: "exited", exitCode: 3, finishedAt: iso() });
    e.event("die", id, { exitCode: "3" });
  },
  destroy: (id) => (e) => {
    e.containers = e.containers.filter((one) => one.id !== id);
    e.event("destroy", id);
  },
  exec: (id) => (e) => e.event("exec_start: sh -c true", id),
  // A change no event tells (one the engine sent while the stream was cut, say).
  quiet: (id) => (e) => e.containers.unshift({ id, name: `n-${id}`, state: "created" }),
};

describe("the mirror lists, then follows the engine's events", () => {
  it.each<[string, Array<[keyof typeof steps, string]>, string[], number]>([
    ["a container made", [["create", "c"]], ["n-c Created", "web Up 5 minutes"], 1],
    [
      "made and started: the event's re-read, then its inspect",
      [
        ["create", "c"],
        ["start", "c"],
      ],
      ["n-c Up Less than a second", "web Up 5 minutes"],
      2,
    ],
    ["one that died", [["die", "a"]], ["web Exited (3) Less than a second ago"], 1],
    ["one removed", [["destroy", "a"]], [], 1],
    [
      "an exec changes nothing a list item shows: nothing re-read",
      [["exec", "a"]],
      ["web Up 5 minutes"],
      0,
    ],
    [
      "a change no event tells is not seen (until a re-list)",
      [["quiet", "q"]],
      ["web Up 5 minutes"],
      0,
    ],
  ])("%s", async (_, script, served, rereads) => {
    engine.containers = [running("a", "web")];
    // Live from the list item alone; its inspect (its state's times) follows.
    expect(await read()).toEqual(["web Up 5 minutes"]);
    expect(inspected()).toBe(0);
    await pass();
    expect(inspected()).toBe(1);
    for (const [step, id] of script) {
      steps[step]!(id)(engine);
      await pass();
    }
    expect(await read()).toEqual(served);
    // Each event re-read only what it touched; none re-listed the engine.
    expect(engine.count("/containers/json filtered")).toBe(rereads);
    expect(engine.count("/containers/json")).toBe(1);
  });

  it("gathers a burst of events into one re-read", async () => {
    engine.containers = [running("a", "web")];
    await read();
    await pass();
    for (let i = 0; i < 50; i++) steps.create!(`b${i}`)(engine);
    await pass();
    expect(await read()).toHaveLength(51);
    expect(engine.count("/containers/json filtered")).toBe(1);
  });
});

describe("the mirror mends what its events missed", () => {
  it("re-lists after a gap (the stream cut and reopened), asking for the events since", async () => {
    engine.containers = [running("a", "web")];
    await read();
    await pass();
    engine.cut();
    steps.quiet!("q")(engine);
    // The stream is tried again after the first backoff step (250 ms): up again, re-listed.
    await pass(300);
    expect(await read()).toEqual(["n-q Created", "web Up 5 minutes"]);
    expect(engine.count("/containers/json")).toBe(2);
    expect(engine.count("/events since")).toBe(1);
    expect(hubStreams(cluster(), { fleet })).toMatchObject({ opened: 2, open: true });
  });

  it("is down while its engine is away, failing reads at once, and lists again once it is back", async () => {
    engine.containers = [running("a", "web")];
    await read();
    await pass();
    engine.away = true;
    engine.cut();
    await pass();
    expect(mirrorStatus(cluster(), { fleet })).toBe("down");
    await expect(read()).rejects.toMatchObject({ code: "ENGINE_UNREACHABLE" });
    // Tried again after 250, 500, 1000, 2000 ms...: four attempts in the first 4 s away.
    await pass(3900);
    expect(engine.count("/events")).toBe(1);
    expect(engine.count("/events since")).toBe(4);
    // Back, another engine: its containers, its version read again.
    engine.away = false;
    engine.containers = [running("z", "after")];
    await pass(8000);
    expect(mirrorStatus(cluster(), { fleet })).toBe("live");
    expect(await read()).toEqual(["after Up 5 minutes"]);
    expect(engine.count("/version")).toBe(2);
  });

  it("re-lists every 5 minutes while held, mending what no event told", async () => {
    engine.containers = [running("a", "web")];
    const held = followMirror(cluster(), { fleet }, () => {});
    await pass();
    steps.quiet!("q")(engine);
    await pass(300_000 - 200);
    expect(engine.count("/containers/json")).toBe(1);
    expect(await read()).toEqual(["web Up 9 minutes"]);
    await pass(200);
    expect(engine.count("/containers/json")).toBe(2);
    expect(await read()).toEqual(["n-q Created", "web Up 10 minutes"]);
    held.close();
  });
});

describe("the mirror's lifetime", () => {
  it.each<[string, number[], number]>([
    // Times of the reads after the first (ms), and when the mirror closes (it is live before).
    ["one read: closed 30 s after it", [], 30_000],
    ["read again at 20 s: closed 30 s after that", [20_000], 50_000],
    ["read at 20 and 45 s", [20_000, 45_000], 75_000],
  ])("%s", async (_, reads, closesAt) => {
    engine.containers = [running("a", "web")];
    await read();
    for (const at of reads) {
      await pass(T0 + at - Date.now());
      await read();
    }
    await pass(T0 + closesAt - 1 - Date.now());
    expect(mirrorStatus(cluster(), { fleet })).toBe("live");
    await pass(1);
    expect(mirrorStatus(cluster(), { fleet })).toBeUndefined();
    // Its event stream outlives it by the grace period too, then closes.
    expect(engine.streams).toBe(1);
    await pass(30_000);
    expect(engine.streams).toBe(0);
  });

  it("a follower holds it past the grace period", async () => {
    engine.containers = [running("a", "web")];
    const held = followMirror(cluster(), { fleet }, () => {});
    await pass(120_000);
    expect(mirrorStatus(cluster(), { fleet })).toBe("live");
    held.close();
    await pass(31_000);
    expect(mirrorStatus(cluster(), { fleet })).toBeUndefined();
  });
});

describe("a slow inspect", () => {
  it("blocks neither the readers nor the events of other containers", async () => {
    engine.containers = [running("a", "web"), running("b", "db")];
    const release = engine.hold("a");
    // Served from the list items at once; the inspects of their slice wait on a's.
    expect(await read()).toEqual(["web Up 5 minutes", "db Up 5 minutes"]);
    await pass(5000);
    expect(inspected()).toBe(0);
    steps.die!("b")(engine);
    await pass();
    // b's event was re-read (its list item) though a's inspect still hangs.
    expect(await read()).toEqual(["web Up 5 minutes", "db Exited (3) Less than a second ago"]);
    release();
    await pass();
    expect(inspected()).toBe(2);
  });
});
