// The pure parts of the dashboard's operator views (src/web): docker's units, the selection sent
// to /logs and /stats, the Logs view's rows and the Alerts view's.
import { describe, expect, it } from "vitest";
import * as cli from "../../src/cli/render/format.ts";
import { alertLink, alertRows, duration } from "../../src/web/alerts.ts";
import {
  appendBounded,
  clockTime,
  PALETTE_SIZE,
  rowMaker,
  rowsAsText,
} from "../../src/web/log-rows.ts";
import {
  describeSelection,
  isSelectionBound,
  NO_SELECTION,
  selectionQuery,
  serverSelection,
} from "../../src/web/selection.ts";
import { bytesSize, humanSize } from "../../src/web/sizes.ts";
import type { AlertItem } from "../../src/web/types.ts";

describe("the page's sizes", () => {
  it.each([
    [0, 4, "0B", "0B"],
    [63, 4, "63B", "63B"],
    [1250, 3, "1.25kB", "1.221KiB"],
    [1_984_000, 4, "1.984MB", "1.892MiB"],
    [1_984_123, 3, "1.98MB", "1.892MiB"],
    [25_270_000_000, 4, "25.27GB", "23.53GiB"],
    [323_584, 3, "324kB", "316KiB"],
  ])(
    "%d bytes at precision %d: %s, %s, as the CLI prints them",
    (bytes, precision, decimal, binary) => {
      expect(humanSize(bytes, precision)).toBe(decimal);
      expect(humanSize(bytes, precision)).toBe(cli.humanSize(bytes, precision));
      expect(bytesSize(bytes)).toBe(binary);
      expect(bytesSize(bytes)).toBe(cli.bytesSize(bytes));
    },
  );

  it("is empty for what is not a number", () => {
    expect([humanSize(undefined), humanSize(Number.NaN), bytesSize(undefined)]).toEqual([
      "",
      "",
      "",
    ]);
  });
});

describe("the selection of the Logs and Stats views", () => {
  it.each([
    [{}, {}, "every container"],
    [{ cluster: "alpha" }, { cluster: ["alpha"] }, "cluster alpha"],
    [{ cluster: "alpha,bravo" }, { cluster: ["alpha", "bravo"] }, "cluster alpha,bravo"],
    [{ project: "shop" }, { project: "shop" }, "project shop"],
    [
      { q: "web", status: "running", health: "unhealthy", label: "app=x" },
      { filter: ["name=web", "status=running", "health=unhealthy", "label=app=x"] },
      "name ~ web, status running, health unhealthy, label app=x",
    ],
  ])("%j is sent as %j", (query, sent, words) => {
    const selection = { ...NO_SELECTION, ...query };
    expect(serverSelection(selection)).toEqual(sent);
    expect(describeSelection(selection)).toBe(words);
    expect(selectionQuery(selection)).toEqual(query);
  });

  it.each([
    [
      "the selection matches 412 containers, more than 100: narrow it (cluster, filter, project)",
      true,
    ],
    ["grep: invalid regular expression", false],
  ])("tells the server's bound from other refusals: %s", (message, bound) => {
    expect(isSelectionBound(message)).toBe(bound);
  });
});

describe("the Logs view's rows", () => {
  const line = (
    cluster: number,
    container: string,
    text: string,
    stream: "stdout" | "stderr" = "stdout",
  ) => ({
    cluster: { id: cluster, name: `c${cluster}` },
    container: { id: container, name: container },
    stream,
    time: "2026-11-25T01:02:03.456789012Z",
    text,
  });

  it("gives each container the palette's next colour, the same to all its lines", () => {
    const row = rowMaker();
    const colours = [
      row(line(1, "web", "a")),
      row(line(2, "web", "b")),
      row(line(1, "web", "c")),
      ...Array.from({ length: PALETTE_SIZE }, (_, i) => row(line(3, `x${i}`, "d"))),
    ].map((one) => one.colour);
    expect(colours.slice(0, 3)).toEqual(["c0", "c1", "c0"]);
    // Past the palette, colours come round again.
    expect(colours.at(-1)).toBe(`c${(PALETTE_SIZE + 1) % PALETTE_SIZE}`);
  });

  it("keeps ANSI colours as classes and status lines as words", () => {
    const row = rowMaker();
    expect(row(line(1, "web", "\u001b[31mred\u001b[0m")).segments).toEqual([
      { text: "red", classes: "fg-1" },
    ]);
    const status = row({
      cluster: { id: 1, name: "c1" },
      container: { id: "web", name: "web" },
      status: "stopped",
      time: "2026-11-25T01:02:04Z",
    });
    expect([status.stream, status.source, status.text]).toEqual(["status", "c1/web", "— stopped"]);
  });

  it("downloads as one line each: time, prefix, stream, text", () => {
    const row = rowMaker();
    expect(rowsAsText([row(line(1, "web", "hello")), row(line(1, "web", "oops", "stderr"))])).toBe(
      "2026-11-25T01:02:03.456789012Z c1/web stdout hello\n" +
        "2026-11-25T01:02:03.456789012Z c1/web stderr oops\n",
    );
  });

  it.each([
    [[1, 2], [3], 5, [1, 2, 3]],
    [[1, 2, 3], [4, 5], 3, [3, 4, 5]],
    [[], [1, 2, 3, 4], 2, [3, 4]],
  ])("appends %j and %j keeping the newest %d", (rows, more, max, kept) => {
    expect(appendBounded(rows, more, max)).toEqual(kept);
  });

  it("shows the time as the page's clock, to the millisecond", () => {
    expect(clockTime("2026-11-25T01:02:03.456Z")).toMatch(/^\d\d:02:03\.456$/);
    expect([clockTime(""), clockTime("not a time")]).toEqual(["", ""]);
  });
});

describe("the Alerts view's rows", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const alpha = { id: 1, name: "alpha" };
  const alert = (id: string, more: Partial<AlertItem>): AlertItem => ({
    id,
    rule: "crashed",
    when: "exited",
    state: "firing",
    cluster: alpha,
    container: { id: `c${id}`, name: `n${id}` },
    cause: "exited with code 3",
    startsAt: at(1),
    link: "",
    ...more,
  });

  it("puts firing first, newest first in each state (a resolved one by when it ended)", () => {
    const rows = alertRows(
      [
        alert("old-resolved", { state: "resolved", startsAt: at(5), endsAt: at(4) }),
        alert("old-firing", { startsAt: at(30) }),
        alert("late-resolved", { state: "resolved", startsAt: at(60), endsAt: at(2) }),
        alert("new-firing", { startsAt: at(3) }),
      ],
      now,
    );
    expect(rows.map((row) => row.id)).toEqual([
      "new-firing",
      "old-firing",
      "late-resolved",
      "old-resolved",
    ]);
    expect(rows[0]).toMatchObject({ startedText: "3 minutes ago", endedText: "", lasted: "" });
    expect(rows[2]).toMatchObject({
      startedText: "1 hour ago",
      endedText: "2 minutes ago",
      lasted: "58 minutes",
    });
  });

  it.each([
    // By its id: a replacement under its name is another container (issue 44).
    [{}, { name: "container", params: { cluster: "alpha", name: "c1" }, query: { name: "n1" } }],
    [{ when: "drift", cluster: null, container: null }, { name: "drift" }],
    [{ when: "engine-down", container: null }, { name: "clusters" }],
    [
      { when: "missing", container: null },
      { name: "containers", query: { cluster: "alpha" } },
    ],
    [{ when: "missing", cluster: null, container: null }, undefined],
  ] as const)("links %j to %j", (more, link) => {
    expect(alertLink(alert("1", more as Partial<AlertItem>))).toEqual(link);
  });

  it.each([
    [{ value: 3 }, "exited with code 3"],
    [{ cause: "CPU over 80% for 1m", value: "93.5%" }, "CPU over 80% for 1m (93.5%)"],
    [{ cause: "a line" }, "a line"],
  ] as const)("words the cause of %j as %s", (more, cause) => {
    expect(alertRows([alert("1", more)], now)[0]!.cause).toBe(cause);
  });

  it("says how long a time span is in its largest unit", () => {
    expect(duration(0, 400)).toBe("under a second");
    expect(duration(0, 45_000)).toBe("45 seconds");
    expect(duration(0, 61_000)).toBe("1 minute");
    expect(duration(0, 2 * 86_400_000)).toBe("2 days");
  });

  it("leaves out a time the server did not send, and sorts it last", () => {
    const rows = alertRows([alert("none", { startsAt: "" }), alert("one", {})], now);
    expect(rows.map((row) => [row.id, row.startedText])).toEqual([
      ["one", "1 minute ago"],
      ["none", ""],
    ]);
  });
});
