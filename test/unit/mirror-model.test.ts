import { describe, expect, it } from "vitest";
import { touchedContainer } from "../../src/core/hub/mirror-upkeep.ts";
import { humanDuration, nextStatusChange, statusText } from "../../src/core/hub/status-text.ts";

// Events in the shapes Docker 28 and Podman 5 send them on /events (trimmed).
const id = "4b1c0e9a7d2f";
const docker = (Type: string, Action: string, Attributes: Record<string, string> = {}) => ({
  Type,
  Action,
  Actor: { ID: Type === "container" ? id : "net0", Attributes },
  scope: "local",
});
const podman = (Action: string, Attributes: Record<string, string> = {}) => ({
  Type: "container",
  Action,
  Actor: {
    ID: id,
    Attributes: { name: "p-web", image: "localhost/local/busybox:1", ...Attributes },
  },
});

describe("which container an event touches (the mirror re-reads only that one)", () => {
  it.each([
    ["docker create", docker("container", "create"), id],
    ["docker start", docker("container", "start"), id],
    ["docker die", docker("container", "die", { exitCode: "3" }), id],
    ["docker pause", docker("container", "pause"), id],
    ["docker rename", docker("container", "rename", { oldName: "/a" }), id],
    ["docker health", docker("container", "health_status: unhealthy"), id],
    ["docker destroy", docker("container", "destroy"), id],
    [
      "docker exec (a health check's)",
      docker("container", "exec_start: test -e /tmp/ok"),
      undefined,
    ],
    ["docker exec_die", docker("container", "exec_die"), undefined],
    ["docker attach", docker("container", "attach"), undefined],
    ["docker top", docker("container", "top"), undefined],
    ["network connect", docker("network", "connect", { container: id, name: "front" }), id],
    ["network disconnect", docker("network", "disconnect", { container: id }), id],
    ["network create", docker("network", "create", { name: "front" }), undefined],
    ["image pull", docker("image", "pull"), undefined],
    ["volume mount", docker("volume", "mount", { container: id }), undefined],
    ["podman died", podman("died"), id],
    ["podman remove", podman("remove"), id],
    ["podman health_status", podman("health_status", { health_status: "healthy" }), id],
    ["podman init", podman("init"), id],
    ["podman cleanup", podman("cleanup"), id],
  ])("%s", (_, event, expected) => {
    expect(touchedContainer(event)).toBe(expected);
  });
});

describe("go-units' HumanDuration", () => {
  it.each([
    [0, "Less than a second"],
    [999, "Less than a second"],
    [1000, "1 second"],
    [59_999, "59 seconds"],
    [60_000, "About a minute"],
    [119_999, "About a minute"],
    [120_000, "2 minutes"],
    [3_599_999, "59 minutes"],
    [3_600_000, "About an hour"],
    [5_399_999, "About an hour"],
    [5_400_000, "2 hours"],
    [47.4 * 3_600_000, "47 hours"],
    [47.5 * 3_600_000, "2 days"],
    [13 * 86_400_000, "13 days"],
    [14 * 86_400_000, "2 weeks"],
    [60 * 86_400_000, "2 months"],
    [729 * 86_400_000, "24 months"],
    [730 * 86_400_000, "2 years"],
  ])("%d ms: %s", (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe("a list item's Status from its state's times", () => {
  const now = Date.parse("2026-11-25T02:10:00Z");
  const started = "2026-11-25T02:04:30.5Z";
  const finished = "2026-11-25T02:09:57Z";
  const zero = "0001-01-01T00:00:00Z";
  it.each([
    ["docker up", { Running: true, StartedAt: started }, "docker", "Up 5 minutes"],
    [
      "docker healthy",
      { Running: true, StartedAt: started, Health: { Status: "healthy" } },
      "docker",
      "Up 5 minutes (healthy)",
    ],
    [
      "docker starting",
      { Running: true, StartedAt: started, Health: { Status: "starting" } },
      "docker",
      "Up 5 minutes (health: starting)",
    ],
    [
      "docker paused",
      { Running: true, Paused: true, StartedAt: started },
      "docker",
      "Up 5 minutes (Paused)",
    ],
    [
      "docker restarting",
      { Running: true, Restarting: true, ExitCode: 1, FinishedAt: finished },
      "docker",
      "Restarting (1) 3 seconds ago",
    ],
    [
      "docker exited",
      { Status: "exited", ExitCode: 3, StartedAt: started, FinishedAt: finished },
      "docker",
      "Exited (3) 3 seconds ago",
    ],
    [
      "docker created",
      { Status: "created", StartedAt: zero, FinishedAt: zero },
      "docker",
      "Created",
    ],
    ["docker dead", { Status: "dead", Dead: true, StartedAt: started }, "docker", "Dead"],
    [
      "docker removing",
      { Status: "removing", StartedAt: started },
      "docker",
      "Removal In Progress",
    ],
    [
      "podman up, health not shown",
      { Status: "running", Running: true, StartedAt: started, Health: { Status: "healthy" } },
      "podman",
      "Up 5 minutes",
    ],
    [
      "podman paused",
      { Status: "paused", Running: true, Paused: true, StartedAt: started },
      "podman",
      "Up 5 minutes (Paused)",
    ],
    [
      "podman exited",
      { Status: "exited", ExitCode: 3, FinishedAt: finished },
      "podman",
      "Exited (3) 3 seconds ago",
    ],
    ["podman configured", { Status: "configured" }, "podman", "Created"],
    ["podman stopping", { Status: "stopping" }, "podman", "Stopping"],
  ] as const)("%s", (_, state, wording, text) => {
    expect(statusText(state, wording, now)).toBe(text);
  });

  it.each([
    [
      "in the first minute: the next second since it started",
      "2026-11-25T02:09:50.250Z",
      Date.parse("2026-11-25T02:10:00.250Z"),
    ],
    [
      "in the first hour: the next minute",
      "2026-11-25T02:04:30.500Z",
      Date.parse("2026-11-25T02:10:30.500Z"),
    ],
    ["later: the next half hour", "2026-11-24T20:00:00Z", Date.parse("2026-11-25T02:30:00Z")],
  ])("changes next %s", (_, startedAt, next) => {
    expect(nextStatusChange({ Running: true, StartedAt: startedAt }, now)).toBe(next);
    // And the text is the same until just before then.
    const state = { Running: true, StartedAt: startedAt };
    expect(statusText(state, "docker", next - 1)).toBe(statusText(state, "docker", now));
  });
});
