import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  watchContainers,
  type ContainerWatchLine,
} from "../../src/core/containers/container-watch.ts";
import type { Fleet } from "../../src/core/engine/fleet.ts";
import { MemoryEngine, memoryFleet } from "./support/memory-engine.ts";

/**
 * The container watch (`GET /list/containers?watch=true`) over the in-memory engine under fake
 * timers: each row what the engine does, and the lines a watcher reads. Its real-engine side is
 * test/integration/container-watch.test.ts.
 */
const T0 = Date.parse("2026-12-07T10:00:30.000Z");
let engine: MemoryEngine;
let fleet: Fleet;
let controller: AbortController;
beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  vi.spyOn(Math, "random").mockReturnValue(1);
  engine = new MemoryEngine();
  // Started 4 minutes 30 s before T0: "Up 4 minutes", then "Up 5 minutes" 30 s in.
  engine.containers = [
    { id: "a", name: "web", state: "running", startedAt: new Date(T0 - 270_000).toISOString() },
  ];
  fleet = memoryFleet(engine);
  controller = new AbortController();
});
afterEach(() => {
  controller.abort();
  fleet.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A line in short: its type and what it is about. */
function short(line: ContainerWatchLine): string {
  switch (line.type) {
    case "snapshot":
      return `snapshot ${line.containers.map((item) => `${item.Names[0]} ${item.Status}`).join(", ")}`;
    case "added":
    case "modified":
      return `${line.type} ${line.container.Names[0]} ${line.container.Status}`;
    case "removed":
      return `removed ${line.id}`;
    case "down":
      return `down ${line.error.code}`;
    default:
      return line.type;
  }
}

/** What the engine does at a time (ms after T0). */
type Step = [at: number, what: "create" | "die" | "destroy" | "away" | "back"];
const act: Record<Step[1], () => void> = {
  create: () => {
    engine.containers.unshift({ id: "c", name: "new", state: "created" });
    engine.event("create", "c");
  },
  die: () => {
    Object.assign(
      engine.containers.find((one) => one.id === "a")!,
      {
        state: "exited",
        exitCode: 3,
        finishedAt: new Date(Date.now()).toISOString(),
      },
    );
    engine.event("die", "a", { exitCode: "3" });
  },
  destroy: () => {
    engine.containers = engine.containers.filter((one) => one.id !== "a");
    engine.event("destroy", "a");
  },
  away: () => {
    engine.away = true;
    engine.cut();
  },
  back: () => {
    engine.away = false;
  },
};

describe("a container watch over the in-memory engine", () => {
  it.each<[string, Step[], number, string[]]>([
    [
      // The memory engine lists at once: its snapshot comes before synced, with no waiting line.
      "first its cluster's snapshot and synced",
      [],
      1000,
      ["snapshot /web Up 4 minutes", "synced"],
    ],
    [
      "a Status text that moves with time is a modified line when it changes",
      [],
      31_000,
      ["snapshot /web Up 4 minutes", "synced", "modified /web Up 5 minutes"],
    ],
    [
      "a container made, one died, one removed: a line each",
      [
        [2000, "create"],
        [3000, "die"],
        [4000, "destroy"],
      ],
      5000,
      [
        "snapshot /web Up 4 minutes",
        "synced",
        "added /new Created",
        "modified /web Exited (3) Less than a second ago",
        "modified /web Exited (3) 1 second ago",
        "removed a",
      ],
    ],
    [
      "the engine away, then back: down, then a new snapshot",
      [
        [2000, "away"],
        [3000, "back"],
      ],
      5000,
      [
        "snapshot /web Up 4 minutes",
        "synced",
        // One line per error: the stream cut (connection reset), then refused while away.
        "down ENGINE_UNREACHABLE",
        "down ENGINE_UNREACHABLE",
        // Back for the attempt at 3,750 (250, 500, 1000 ms apart): listed again.
        "snapshot /web Up 4 minutes",
      ],
    ],
  ])("%s", async (_, script, until, read) => {
    const lines: string[] = [];
    const watch = await watchContainers({ fleet, signal: controller.signal });
    void (async () => {
      for await (const line of watch) lines.push(short(line));
    })();
    for (const [at, step] of script) {
      await vi.advanceTimersByTimeAsync(T0 + at - Date.now());
      act[step]();
    }
    await vi.advanceTimersByTimeAsync(T0 + until - Date.now());
    expect(lines).toEqual(read);
  });
});
