import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamEvents } from "../../src/core/clusters/events.ts";
import { loadFleet, type Fleet } from "../../src/core/engine/fleet.ts";
import { floodEvents, removeFlood } from "./event-flood.ts";
import { alphaAndBravo, cli, engines, readInto, writeConfig } from "./helpers.ts";
import { startServer, type TestServer } from "./server-helpers.ts";

/**
 * The engine keeps only its last 256 events (moby: daemon/events, `eventsLimit`): asked for
 * events since a time before them, it sends those 256 alone. The CLI, `/events` and the page say
 * so (issue 44): alpha gets more than 256 events after `since`; bravo none.
 */
const LABEL = "docklens-test=events-backlog";
let server: TestServer;
let fleet: Fleet;
let config: string;
/** Unix seconds before the flood, and after it. */
let since: number;
let until: number;

beforeAll(async () => {
  config = await writeConfig("events-backlog.json", { clusters: alphaAndBravo() });
  fleet = await loadFleet({ configPath: config });
  server = await startServer({ log: false, fleet });
  since = Math.floor(Date.now() / 1000) - 1;
  await floodEvents(engines.hostA, LABEL);
  until = Math.ceil(Date.now() / 1000) + 1;
}, 120_000);

afterAll(async () => {
  await server?.close();
  fleet?.close();
  await removeFlood(engines.hostA, LABEL);
});

describe("an engine whose events do not reach back to since", () => {
  it("is said once, before its events, in the core's stream; not of an engine that reaches", async () => {
    const items: any[] = [];
    await readInto(await streamEvents({ fleet, since, until }), items);
    const truncated = items.filter((item) => item.status === "truncated");
    expect(truncated).toEqual([
      { cluster: { id: 1, name: "alpha" }, status: "truncated", oldest: expect.any(Number) },
    ]);
    const alpha = items.filter((item) => item.cluster.name === "alpha");
    expect(alpha[0]).toBe(truncated[0]);
    // The oldest it keeps is its first event sent, later than since.
    expect(truncated[0].oldest).toBeGreaterThan(since);
    expect(truncated[0].oldest).toBeCloseTo(Number(BigInt(alpha[1].timeNano)) / 1e9, 5);
    // How many: the 256 it keeps, less those later events of other tests pushed out, plus those
    // that came live before until; so only that some came.
    expect(alpha.length - 1).toBeGreaterThan(0);
  });

  it("is a status line of GET /events, and one line on the CLI's stderr", async () => {
    const body = await fetch(
      `${server.url}/events?cluster=alpha&cluster=bravo&since=${since}&until=${until}`,
    ).then((response) => response.text());
    const lines = body
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => !line.Type)).toEqual([
      { cluster: { id: 1, name: "alpha" }, status: "truncated", oldest: expect.any(Number) },
    ]);
    const run = await cli([
      "events",
      "--config",
      config,
      "--since",
      String(since),
      "--until",
      String(until),
    ]);
    expect(run.code).toBe(0);
    const said = run.stderr.split("\n").filter((line) => line.includes("reach back"));
    expect(said).toEqual([
      expect.stringMatching(
        /^docklens: alpha: the engine's events reach back only to \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, the last it keeps; earlier ones are not shown$/,
      ),
    ]);
    const shown = run.stdout.split("\n").filter((line) => / alpha /.test(line)).length;
    expect(shown).toBeGreaterThan(0);
  });

  it("is not said when the backlog reaches since", async () => {
    const run = await cli([
      "events",
      "--config",
      config,
      "--since",
      String(until),
      "--until",
      String(Math.ceil(Date.now() / 1000) + 1),
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("reach back");
  });
});
