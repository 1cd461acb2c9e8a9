import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchContainers } from "../../src/core/containers/container-watch.ts";
import { type Fleet } from "../../src/core/engine/fleet.ts";
import { docker, engines, readInto } from "./helpers.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";
import { until } from "../support/until.ts";

/** `/list/containers?watch=true` (issue 25 item 5): a snapshot, then changes, pushed. */
const LABEL = "docklens-test=watch";
const ROOT = "watch-root-secret";
const TEAM = "watch-team-secret";
/** A token whose scope matches no cluster of the config. */
const NONE = "watch-none-secret";
let server: TestServer;
let proxy: LinkProxy;
let fleet: Fleet;

beforeAll(async () => {
  const known = JSON.parse(await readFile(engines.configPath, "utf8")).clusters as Array<{
    name: string;
  }>;
  ({ proxy, fleet } = await linkedFleet(
    "container-watch.json",
    { live: true, graceMs: 2000 },
    (linked) => ({
      clusters: [
        linked,
        ...known.filter((cluster) => cluster.name === "dead" || cluster.name === "hang"),
      ],
      tokens: [
        {
          name: "team",
          sha256: createHash("sha256").update(TEAM).digest("hex"),
          clusters: ["linked"],
        },
        {
          name: "none",
          sha256: createHash("sha256").update(NONE).digest("hex"),
          clusters: ["elsewhere-*"],
        },
      ],
    }),
  ));
  server = await startServer({ log: false, fleet, token: ROOT });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close().catch(() => undefined);
  const ids = (await docker(engines.hostA, "ps", "-aq", "--filter", `label=${LABEL}`))
    .split("\n")
    .filter(Boolean);
  if (ids.length) await docker(engines.hostA, "rm", "-f", ...ids);
});

const engineRequests = (pattern: RegExp) =>
  proxy.requests.filter((line) => pattern.test(line)).length;

/** A watcher that keeps every line it read (with when it came), until `leave`. */
function watcher(path: string, token = ROOT) {
  const lines: any[] = [];
  const at: number[] = [];
  let pending = "";
  let status = 0;
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const req = request(
    { host: "127.0.0.1", port: server.port, path, headers: { authorization: `Bearer ${token}` } },
    (res) => {
      status = res.statusCode ?? 0;
      opened();
      res.on("data", (chunk: Buffer) => {
        const parts = (pending + chunk.toString()).split("\n");
        pending = parts.pop()!;
        for (const line of parts.filter(Boolean)) {
          lines.push(JSON.parse(line));
          at.push(Date.now());
        }
      });
    },
  );
  req.on("error", () => undefined);
  req.end();
  return { lines, at, ready, status: () => status, leave: () => req.destroy() };
}

/** A cluster's list as the watch's lines make it: the last snapshot, then each change applied. */
function applied(lines: any[], cluster: string): Map<string, any> {
  const list = new Map<string, any>();
  for (const line of lines.filter((one) => one.cluster?.name === cluster)) {
    if (line.type === "snapshot") {
      list.clear();
      for (const item of line.containers) list.set(item.Id, item);
    } else if (line.type === "added" || line.type === "modified")
      list.set(line.container.Id, line.container);
    else if (line.type === "removed") list.delete(line.id);
  }
  return list;
}

const served = async (cluster: string) =>
  (
    await raw(server.port, `/list/${cluster}/containers`, {
      headers: { authorization: `Bearer ${ROOT}` },
    })
  ).json.containers as any[];
/** Items without their `Status` text, which moves with time between two reads. */
const still = (items: Iterable<any>) =>
  [...items]
    .map(({ Status: _, ...item }) => item)
    .sort((a, b) => String(a.Id).localeCompare(String(b.Id)));

describe("GET /list/containers?watch=true", () => {
  it("sends each cluster's snapshot, equal to its list and the engine's, then a start, stop and removal as changes", async () => {
    const one = watcher("/list/containers?watch=true&cluster=linked");
    await one.ready;
    expect(one.status()).toBe(200);
    expect(await until(() => one.lines.some((line) => line.type === "snapshot"))).toBe(true);
    const snapshot = one.lines.find((line) => line.type === "snapshot");
    expect(snapshot.cluster).toEqual({ id: 1, name: "linked" });
    expect(still(snapshot.containers)).toEqual(still(await served("linked")));
    const engineIds = (await docker(engines.hostA, "ps", "-aq", "--no-trunc")).split("\n");
    expect(snapshot.containers.map((item: any) => item.Id).sort()).toEqual(
      engineIds.filter(Boolean).sort(),
    );

    const id = await docker(
      engines.hostA,
      "run",
      "-d",
      "--label",
      LABEL,
      "local/busybox:1",
      "sleep",
      "300",
    );
    const state = () => applied(one.lines, "linked").get(id)?.State;
    expect(await until(() => state() === "running")).toBe(true);
    expect(one.lines.some((line) => line.type === "added" && line.container.Id === id)).toBe(true);
    await docker(engines.hostA, "stop", "-t", "0", id);
    expect(await until(() => state() === "exited")).toBe(true);
    expect(
      one.lines.some(
        (line) =>
          line.type === "modified" && line.container.Id === id && line.container.State === "exited",
      ),
    ).toBe(true);
    await docker(engines.hostA, "rm", id);
    expect(
      await until(() => one.lines.some((line) => line.type === "removed" && line.id === id)),
    ).toBe(true);
    // The snapshot with every change applied is the list served now.
    expect(still(applied(one.lines, "linked").values())).toEqual(still(await served("linked")));
    // No snapshot again for a change: one line per container.
    expect(one.lines.filter((line) => line.type === "snapshot")).toHaveLength(1);
    one.leave();
  });

  it("says a hung and a dead cluster in-line, without holding up the cluster that answers", async () => {
    const all = watcher("/list/containers?watch=true");
    await all.ready;
    const first = (name: string) => all.lines.find((line) => line.cluster?.name === name);
    const firstIndex = (name: string, type: string) =>
      all.lines.findIndex((line) => line.cluster?.name === name && line.type === type);
    expect(
      await until(() => firstIndex("hang", "down") >= 0 && firstIndex("dead", "down") >= 0),
    ).toBe(true);
    // The hung engine was said waiting at once, and the others' lines did not wait for it.
    expect(first("hang")).toEqual({ type: "waiting", cluster: { id: 3, name: "hang" } });
    expect(firstIndex("linked", "snapshot")).toBeLessThan(firstIndex("hang", "down"));
    const down = all.lines[firstIndex("hang", "down")];
    expect(down.error.code).toMatch(/ENGINE_(TIMEOUT|UNREACHABLE)/);
    expect(all.lines[firstIndex("dead", "down")].error.code).toBe("ENGINE_UNREACHABLE");
    // Once every cluster had its first line, and before the hung one's answer: `synced`, once.
    const synced = all.lines.findIndex((line) => line.type === "synced");
    expect(all.lines[synced]).toEqual({ type: "synced" });
    expect(synced).toBeGreaterThan(firstIndex("hang", "waiting"));
    expect(synced).toBeGreaterThan(firstIndex("linked", "snapshot"));
    expect(synced).toBeLessThan(firstIndex("hang", "down"));
    expect(all.lines.filter((line) => line.type === "synced")).toHaveLength(1);
    all.leave();

    // A watcher that comes once they are known down is told so in its first lines, at once.
    const late = watcher("/list/containers?watch=true");
    expect(await until(() => late.lines.length >= 4, 5000)).toBe(true);
    expect(
      late.lines
        .slice(0, 3)
        .map((line) => `${line.cluster.name} ${line.type}`)
        .sort(),
    ).toEqual(["dead down", "hang down", "linked snapshot"]);
    expect(late.lines[3]).toEqual({ type: "synced" });
    late.leave();
  });

  it("serves 20 watchers from one engine stream, with the engine requests of one watcher", async () => {
    const added = (one: ReturnType<typeof watcher>, id: string) =>
      one.lines.some((line) => line.type === "added" && line.container.Id === id);
    const removed = (one: ReturnType<typeof watcher>, id: string) =>
      one.lines.some((line) => line.type === "removed" && line.id === id);
    // A container created, seen, then removed: one removed within the same batch of the watch's
    // changes was never in a state it sent, and is rightly never said.
    const churn = async (watchers: Array<ReturnType<typeof watcher>>) => {
      const id = await docker(engines.hostA, "create", "--label", LABEL, "local/busybox:1", "true");
      await until(() => watchers.every((one) => added(one, id)), 2000);
      await docker(engines.hostA, "rm", id);
      return id;
    };
    const costOf = async (count: number) => {
      const watchers = Array.from({ length: count }, () =>
        watcher("/list/containers?watch=true&cluster=linked"),
      );
      await Promise.all(watchers.map((one) => one.ready));
      expect(await until(() => watchers.every((one) => one.lines.length > 0))).toBe(true);
      // moby answers /events before it subscribes (as hub-events.test.ts says): changes count
      // once one has come through to every watcher.
      let warm = false;
      for (let tries = 0; !warm && tries < 10; tries++) {
        const warmUp = await churn(watchers);
        warm = await until(() => watchers.every((one) => removed(one, warmUp)), 2000);
      }
      expect(warm).toBe(true);
      const streams = engineRequests(/\/events\b/);
      const requests = proxy.requests.length;
      const id = await churn(watchers);
      expect(await until(() => watchers.every((one) => removed(one, id)))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cost = {
        requests: proxy.requests.length - requests,
        streams: engineRequests(/\/events\b/) - streams,
      };
      for (const one of watchers) one.leave();
      return cost;
    };
    const one = await costOf(1);
    const twenty = await costOf(20);
    expect(one.streams).toBe(0);
    expect(twenty.streams).toBe(0);
    // A create and a removal: the re-reads of what changed, once for all the watchers.
    expect(twenty.requests).toBeLessThanOrEqual(one.requests + 2);
    expect(twenty.requests).toBeLessThanOrEqual(8);
    // One engine event stream opened in the whole file.
    expect(engineRequests(/\/events\b/)).toBe(1);
  });

  it("shows a scoped token only its clusters", async () => {
    const team = watcher("/list/containers?watch=true", TEAM);
    await team.ready;
    expect(team.status()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(team.lines.map((line) => line.cluster?.name ?? line.type).slice(0, 2)).toEqual([
      "linked",
      "synced",
    ]);
    expect(new Set(team.lines.map((line) => line.cluster?.name ?? line.type))).toEqual(
      new Set(["linked", "synced"]),
    );
    team.leave();
    // A token that sees no cluster is told at once that there is none.
    const none = watcher("/list/containers?watch=true", NONE);
    expect(await until(() => none.lines.length > 0, 5000)).toBe(true);
    expect(none.status()).toBe(200);
    expect(none.lines).toEqual([{ type: "synced" }]);
    none.leave();
    const hidden = await raw(server.port, "/list/containers?watch=true&cluster=hang", {
      headers: { authorization: `Bearer ${TEAM}` },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.json.error.code).toBe("CLUSTER_NOT_FOUND");
  });

  it("comes compressed when asked, each line flushed as it is written", async () => {
    for (const coding of ["gzip", "br"] as const) {
      const lines: any[] = [];
      let encoding: string | undefined;
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/list/containers?watch=true&cluster=linked",
          headers: { authorization: `Bearer ${ROOT}`, "accept-encoding": coding },
        },
        (res) => {
          encoding = res.headers["content-encoding"];
          const decoded = res.pipe(coding === "br" ? createBrotliDecompress() : createGunzip());
          let pending = "";
          decoded.on("data", (chunk: Buffer) => {
            const parts = (pending + chunk.toString()).split("\n");
            pending = parts.pop()!;
            lines.push(...parts.filter(Boolean).map((line) => JSON.parse(line)));
          });
          decoded.on("error", () => undefined);
        },
      );
      req.on("error", () => undefined);
      req.end();
      // The snapshot arrives whole while the stream stays open.
      expect(await until(() => lines.some((line) => line.type === "snapshot"))).toBe(true);
      expect(encoding).toBe(coding);
      const id = await docker(engines.hostA, "create", "--label", LABEL, "local/busybox:1", "true");
      expect(
        await until(() => lines.some((line) => line.type === "added" && line.container.Id === id)),
      ).toBe(true);
      await docker(engines.hostA, "rm", id);
      req.destroy();
    }
  });

  it("refuses filter and size with watch, as the list would not be the one watched", async () => {
    for (const query of ["filter=status%3Drunning", "size=true"]) {
      const response = await raw(server.port, `/list/containers?watch=true&${query}`, {
        headers: { authorization: `Bearer ${ROOT}` },
      });
      expect(response.status).toBe(400);
      expect(response.json.error.code).toBe("INVALID_QUERY");
    }
  });

  it("ends a watcher that does not read, once it is its bound behind, with CLIENT_TOO_SLOW", async () => {
    // Both end with the test, whatever it finds.
    const done = new AbortController();
    const lines = await watchContainers({
      fleet,
      clusters: ["linked"],
      maxBacklog: { items: 2 },
      signal: done.signal,
    });
    try {
      // A witness that reads: the lines it saw are queued for the watcher that does not. The
      // container is removed only once it was said added (a create and a remove in one batch of
      // changes are never said, and the watcher would then never be behind).
      const witness = await watchContainers({ fleet, clusters: ["linked"], signal: done.signal });
      const seen: any[] = [];
      void readInto(witness, seen).catch(() => undefined);
      const said = (type: string, id: string) =>
        seen.some((line) => line.type === type && (line.id ?? line.container?.Id) === id);
      // Not read: the snapshot and the changes queue up.
      const id = await docker(engines.hostA, "create", "--label", LABEL, "local/busybox:1", "true");
      expect(await until(() => said("added", id))).toBe(true);
      await docker(engines.hostA, "rm", id);
      expect(await until(() => said("removed", id))).toBe(true);
      const read: any[] = [];
      await expect(readInto(lines, read)).rejects.toMatchObject({ code: "CLIENT_TOO_SLOW" });
      expect(read.length).toBe(2);
      expect(read[0].type).toBe("snapshot");
    } finally {
      done.abort();
    }
  });
});
