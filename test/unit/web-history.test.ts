// The pure parts of the dashboard's history pages (src/web): the windows in its URLs and the
// chart's step, a removed container's row in the Containers view, an alert's "Then" link.
import { describe, expect, it } from "vitest";
import { recordedLink } from "../../src/web/alerts.ts";
import { removedRow } from "../../src/web/containers-model.ts";
import { recentWindow, statsStep, windowAround, windowOf } from "../../src/web/history-window.ts";
import type { AlertItem, HistoryContainer } from "../../src/web/types.ts";

describe("history's windows", () => {
  const now = Date.parse("2026-12-07T12:00:00Z");

  it("steps a chart to about 240 points, never under a second", () => {
    expect(statsStep({ since: "6h", until: "" }, now)).toBe("90s");
    expect(statsStep({ since: "2026-12-07T11:50:00Z", until: "2026-12-07T11:54:00Z" }, now)).toBe(
      "1s",
    );
    expect(statsStep({ since: "2026-12-06T12:00:00Z", until: "" }, now)).toBe("360s");
  });

  it("charts a live container's last 6 hours, or since it was created", () => {
    expect(recentWindow("2026-12-01T00:00:00Z", now)).toEqual({
      since: "6h",
      until: "",
      span: "the last 6 hours",
    });
    expect(recentWindow("2026-12-07T11:30:00.123456789Z", now)).toEqual({
      since: "2026-12-07T11:30:00Z",
      until: "",
      span: "since it was created",
    });
    expect(recentWindow("", now).since).toBe("6h");
  });

  it("reads a window from the URL and makes one around an alert", () => {
    expect(windowOf({})).toBeUndefined();
    expect(windowOf({ since: "2026-12-07T11:00:00Z" })).toEqual({
      since: "2026-12-07T11:00:00Z",
      until: "",
    });
    const started = Date.parse("2026-12-07T11:00:00.250Z");
    expect(windowAround(started, 0)).toEqual({ since: "2026-12-07T10:55:00Z" });
    expect(windowAround(started, started + 60_000)).toEqual({
      since: "2026-12-07T10:55:00Z",
      until: "2026-12-07T11:06:00Z",
    });
  });
});

describe("a removed container's row", () => {
  it("is marked removed, says its last state and links by its id", () => {
    const record: HistoryContainer = {
      cluster: { id: 7, name: "bravo" },
      id: "abc123",
      name: "web",
      image: "local/app:1",
      state: "exited",
      exitCode: 137,
      recorded: "2026-12-07T11:00:00.000Z",
      removed: new Date(Date.now() - 120_000).toISOString(),
      inspect: {
        Created: "2026-12-07T10:00:00Z",
        Config: { Labels: { "com.docker.compose.project": "shop" } },
      },
    };
    expect(removedRow(record)).toMatchObject({
      key: "7/abc123",
      cluster: "bravo",
      state: "removed",
      status: "Exited (137), removed 2 minutes ago",
      project: "shop",
      created: "2026-12-07T10:00:00Z",
      removed: true,
    });
  });
});

describe("an alert's recorded link", () => {
  const alert: AlertItem = {
    id: "1",
    rule: "crashed",
    when: "exited",
    state: "resolved",
    cluster: { id: 1, name: "alpha" },
    container: { id: "c1", name: "web" },
    cause: "exited with code 3",
    startsAt: "2026-12-07T11:00:00Z",
    endsAt: "2026-12-07T11:10:00Z",
    link: "",
  };
  const at = (iso: string) => Date.parse(iso);

  it("is its container's page with the window around it", () => {
    expect(recordedLink(alert, at(alert.startsAt), at(alert.endsAt!))).toEqual({
      name: "container",
      params: { cluster: "alpha", name: "c1" },
      query: { name: "web", since: "2026-12-07T10:55:00Z", until: "2026-12-07T11:15:00Z" },
    });
  });

  it("is none without a container", () => {
    expect(recordedLink({ ...alert, container: null }, at(alert.startsAt), 0)).toBeUndefined();
  });
});
