import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamEvents } from "../../src/core/clusters/events.ts";
import { type Fleet } from "../../src/core/engine/fleet.ts";
import { alphaAndBravo, docker, engines, readInto } from "./helpers.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";
import { until } from "../support/until.ts";
import { startServer, type TestServer } from "./server-helpers.ts";

/** One event stream of all engines: tagged with its cluster, surviving a cut link, bounded per client. */
let server: TestServer;
let proxy: LinkProxy;
let fleet: Fleet;

beforeAll(async () => {
  ({ proxy, fleet } = await linkedFleet("events.json", {}, (linked) => ({
    clusters: [...alphaAndBravo(), linked],
  })));
  server = await startServer({ log: false, fleet });
});
afterAll(async () => {
  await server.close();
  await proxy.close().catch(() => undefined);
});

/** Read an event stream until `done` says so (or 20 s pass), then leave. */
function readEvents(
  path: string,
  done: (items: any[]) => boolean,
  headers: Record<string, string> = {},
): Promise<{ type: string; items: any[]; raw: string }> {
  return new Promise((resolve, reject) => {
    const items: any[] = [];
    let raw = "";
    let pending = "";
    const req = request({ host: "127.0.0.1", port: server.port, path, headers }, (res) => {
      const finish = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ type: String(res.headers["content-type"]), items, raw });
      };
      const timer = setTimeout(finish, 20_000);
      res.on("data", (chunk: Buffer) => {
        raw += chunk.toString();
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop()!;
        // An SSE frame's `id:` line is the event's timeNano; its `data:` line the event.
        const data = lines.filter((text) => !text.startsWith("id: "));
        for (const line of data.map((text) => text.replace(/^data: /, "")).filter(Boolean))
          items.push(JSON.parse(line));
        if (done(items)) finish();
      });
      res.on("end", finish);
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** Create and remove a container on an engine: two events, create and destroy. */
async function createAndRemove(host: string): Promise<string> {
  const id = await docker(
    host,
    "create",
    "--label",
    "docklens-test=events",
    "local/busybox:1",
    "true",
  );
  await docker(host, "rm", id);
  return id;
}

const of = (items: any[], id: string, action: string) =>
  items.find((item) => item.Actor?.ID === id && item.Action === action);
/** A second ago: the engines send what came since, so nothing depends on when a subscription began. */
const since = () => `since=${Math.floor(Date.now() / 1000) - 1}`;

describe("GET /events and docklens events", () => {
  it("merges the engines' events, each tagged with its cluster; SSE when asked", async () => {
    let id = "";
    const reading = readEvents(
      `/events?cluster=alpha&cluster=bravo&filter=type%3Dcontainer&${since()}`,
      (items) => Boolean(id && of(items, id, "destroy")),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    id = await createAndRemove(engines.adminB);
    const { type, items } = await reading;
    expect(type).toBe("application/x-ndjson");
    expect(of(items, id, "create")).toMatchObject({
      Type: "container",
      cluster: { id: 7, name: "bravo" },
    });
    expect(of(items, id, "destroy").cluster).toEqual({ id: 7, name: "bravo" });
    expect(items.every((item) => item.Type === "container")).toBe(true);

    let sseId = "";
    const sse = readEvents(
      `/events?cluster=alpha&${since()}`,
      (items) => Boolean(sseId && of(items, sseId, "destroy")),
      { accept: "text/event-stream" },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    sseId = await createAndRemove(engines.hostA);
    const answer = await sse;
    expect(answer.type).toBe("text/event-stream");
    expect(answer.raw).toMatch(/^(id: \d+\n)?data: \{/);
    expect(of(answer.items, sseId, "create").cluster).toEqual({ id: 1, name: "alpha" });
  });

  it("gives each SSE event its timeNano as id, and resumes after Last-Event-ID without repeating it", async () => {
    const start = Math.floor(Date.now() / 1000) - 1;
    const ids = [await createAndRemove(engines.hostA), await createAndRemove(engines.hostA)];
    const until = (Date.now() / 1000 + 0.5).toFixed(3);
    const containers = ids.map((id) => `filter=container%3D${id}`).join("&");
    const path = `/events?cluster=alpha&${containers}&since=${start}&until=${until}`;
    const frames = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { accept: "text/event-stream", ...headers },
      });
      const text = await response.text();
      return {
        status: response.status,
        frames: text
          .split("\n\n")
          .filter(Boolean)
          .map((frame) => ({
            id: /^id: (.*)$/m.exec(frame)?.[1],
            // The data's own timeNano, as digits: JSON.parse would round it (it is beyond 2^53).
            timeNano: /"timeNano":(\d+)/.exec(frame)?.[1],
            action: /"Action":"(\w+)"/.exec(frame)?.[1],
          })),
      };
    };
    const all = await frames();
    expect(all.frames.map((frame) => frame.action)).toEqual([
      "create",
      "destroy",
      "create",
      "destroy",
    ]);
    for (const frame of all.frames) expect(frame.id).toBe(frame.timeNano);
    // The browser reconnects to the same URL, since and all, with the last id it saw.
    const resumed = await frames({ "last-event-id": all.frames[1]!.id! });
    expect(resumed.frames).toEqual(all.frames.slice(2));
    const bad = await frames({ "last-event-id": "yesterday" });
    expect(bad.status).toBe(400);
  });

  it("reports a link cut and restored, and then sends the events it missed", async () => {
    let missed = "";
    const reading = readEvents(
      `/events?cluster=linked&filter=type%3Dcontainer&${since()}`,
      (items) => Boolean(missed && of(items, missed, "destroy")),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 300));
    missed = await createAndRemove(engines.hostA);
    await proxy.restore();
    const { items } = await reading;
    const statuses = items
      .filter((item) => item.status === "disconnected" || item.status === "reconnected")
      .filter((item) => !item.Type);
    // Each failed attempt to reconnect is said (issue 24), then the return once.
    const said = statuses.map((item) => item.status);
    expect(said.at(-1)).toBe("reconnected");
    expect(new Set(said.slice(0, -1))).toEqual(new Set(["disconnected"]));
    expect(statuses[0]).toMatchObject({
      cluster: { name: "linked" },
      error: { code: expect.stringMatching(/^ENGINE_/) },
    });
    // What happened while the link was down arrives after it is back.
    const index = (item: unknown) => items.indexOf(item);
    expect(index(of(items, missed, "create"))).toBeGreaterThan(index(statuses[1]));
    expect(of(items, missed, "create").cluster.name).toBe("linked");
  });

  it("closes a consumer that falls too far behind with a line saying why, holding no more than its bound", async () => {
    const controller = new AbortController();
    const events = await streamEvents({
      fleet,
      signal: controller.signal,
      clusters: ["alpha"],
      filters: { type: ["container"] },
      maxBuffered: 4,
    });
    try {
      // A witness that reads the same engine stream: what it heard, the other holds unread.
      const witness = await streamEvents({
        fleet,
        signal: controller.signal,
        clusters: ["alpha"],
        filters: { type: ["container"] },
      });
      let heard = 0;
      void (async () => {
        for await (const item of witness) if (item) heard++;
      })().catch(() => undefined);
      // Nothing is read while the engine sends six events or more (asked again until the stream,
      // which may open after the first, has carried six).
      for (let i = 0; i < 10 && heard < 6; i++) await createAndRemove(engines.hostA);
      expect(await until(() => heard >= 6)).toBe(true);
      const seen: unknown[] = [];
      await expect(readInto(events, seen)).rejects.toMatchObject({ code: "CLIENT_TOO_SLOW" });
      expect(seen.length).toBeLessThanOrEqual(4);
    } finally {
      controller.abort();
    }
  });

  it("with until, ends once every engine sent everything up to it, a dropped link too", async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = await fetch(
      `${server.url}/events?cluster=alpha&cluster=bravo&since=${now - 30}&until=${now - 1}`,
    ).then((r) => r.text());
    expect(
      body
        .split("\n")
        .filter(Boolean)
        .every((line) => JSON.parse(line).cluster),
    ).toBe(true);
    await proxy.cut();
    try {
      const lines = (
        await fetch(`${server.url}/events?cluster=linked&since=${now - 30}&until=${now - 1}`).then(
          (r) => r.text(),
        )
      )
        .split("\n")
        .filter(Boolean);
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({
        cluster: { name: "linked" },
        status: "disconnected",
      });
    } finally {
      await proxy.restore();
    }
  });

  it("rejects an unknown cluster and a bad filter before streaming", async () => {
    const unknown = await fetch(`${server.url}/events?cluster=nope`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      "CLUSTER_NOT_FOUND",
    );
    expect((await fetch(`${server.url}/events?filter=colour%3Dred`)).status).toBe(400);
  });
});
