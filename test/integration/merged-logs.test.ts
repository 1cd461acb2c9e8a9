import { afterAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { parseFilters } from "../../src/core/engine/filters.ts";
import { followMergedLogs } from "../../src/core/containers/follow-merged-logs.ts";
import { readMergedLogs } from "../../src/core/containers/merged-logs.ts";
import { listAllContainers } from "../../src/core/containers/list-containers.ts";
import { compareTimes, timeKey } from "../../src/core/containers/reorder.ts";
import { docker, engines } from "./helpers.ts";

/** The logs of many containers on several clusters, merged in time order. */
const fleet = await loadFleet({ configPath: engines.configPath });
afterAll(() => fleet.close());
const IMAGE = "local/busybox:1";
const names = (filter: string) => parseFilters("containers", [`name=${filter}`]);
const inOrder = (times: Array<string | null>) =>
  times.every((time, i) => i === 0 || compareTimes(timeKey(times[i - 1]!), timeKey(time)) <= 0);

/** Run `test` with containers made for it, removed after it whatever happens. */
async function withContainers(
  made: Array<[host: string, name: string, script: string]>,
  test: () => Promise<void>,
): Promise<void> {
  try {
    await Promise.all(
      made.map(([host, name, script]) =>
        docker(host, "run", "-d", "--name", name, IMAGE, "sh", "-c", script),
      ),
    );
    await test();
  } finally {
    await Promise.all(
      made.map(([host, name]) => docker(host, "rm", "-f", name).catch(() => undefined)),
    );
  }
}

describe("merged logs", () => {
  it("merge several containers of two clusters in time order, each line tagged, tail per container", async () => {
    const body = await readMergedLogs({
      fleet,
      clusters: ["alpha", "bravo"],
      filters: names("^/?(web|b-tty)$"),
      query: { tail: 4 },
    });
    expect(body.errors).toEqual([]);
    const tags = body.lines.map((line) => `${line.cluster.name}/${line.container.name}`);
    expect(tags.filter((tag) => tag === "alpha/web")).toHaveLength(4);
    expect(tags.filter((tag) => tag === "bravo/b-tty")).toHaveLength(4);
    expect(inOrder(body.lines.map((line) => line.time))).toBe(true);
    expect(body.lines.every((line) => /^(out|err|tty) \d+$/.test(line.text))).toBe(true);
    expect(body.lines[0]!.container.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keep only the lines grep matches, in linear time; a bad or long pattern is INVALID_QUERY", async () => {
    const body = await readMergedLogs({
      fleet,
      clusters: ["alpha", "bravo"],
      filters: names("^/?(web|b-tty)$"),
      query: { tail: 6, grep: "^(out|tty) [0-9]+$" },
    });
    expect(body.lines.length).toBeGreaterThan(0);
    expect(body.lines.every((line) => line.stream === "stdout")).toBe(true);
    for (const grep of ["(unclosed", "a".repeat(257)])
      await expect(readMergedLogs({ fleet, query: { grep } })).rejects.toMatchObject({
        code: "INVALID_QUERY",
        param: "grep",
      });
  });

  it("a failed cluster is an errors entry; the bound counts every cluster's containers", async () => {
    const body = await readMergedLogs({ fleet, project: "shop", query: { tail: 1 } });
    expect(body.errors.map(({ cluster, error }) => [cluster.name, error.code])).toEqual([
      ["dead", "ENGINE_UNREACHABLE"],
      ["hang", "ENGINE_TIMEOUT"],
    ]);
    await expect(readMergedLogs({ fleet, maxContainers: 3 })).rejects.toMatchObject({
      code: "INVALID_QUERY",
    });
  });

  it("with newest, a selection over the bound is cut to its most recently created, and says how many matched", async () => {
    const { containers } = await listAllContainers({ fleet, clusters: ["alpha", "bravo"] });
    const newest = [...containers]
      .sort((a, b) => b.Created.localeCompare(a.Created))
      .slice(0, 3)
      .map((item) => `${item.cluster.name}/${item.Names[0]!.slice(1)}`);
    const query = { tail: 1 };
    const options = { fleet, clusters: ["alpha", "bravo"], maxContainers: 3, query };
    // Without it, still refused: a selection someone made is never cut without a word.
    await expect(readMergedLogs(options)).rejects.toMatchObject({ code: "INVALID_QUERY" });
    const body = await readMergedLogs({ ...options, newest: true });
    expect(body.selection).toEqual({ matched: containers.length, containers: 3 });
    const read = new Set(body.lines.map((line) => `${line.cluster.name}/${line.container.name}`));
    expect(newest).toEqual(expect.arrayContaining([...read]));
    // Followed: the count on the stream, for /logs to send as its first line.
    const controller = new AbortController();
    const stream = await followMergedLogs({ ...options, newest: true, signal: controller.signal });
    expect(stream.selection).toEqual({ matched: containers.length, containers: 3 });
    controller.abort();
    // Aborted, its first read ends it (and its timer).
    expect((await stream.next()).done).toBe(true);
  });

  it("make a line longer than the engine's 16 KiB frame one line again", async () => {
    const script = "head -c 40000 /dev/zero | tr '\\0' a; echo; echo after; sleep 100000";
    await withContainers([[engines.hostA, "lens-long", script]], async () => {
      let lines: Array<{ text: string }> = [];
      for (let i = 0; i < 50 && lines.length < 2; i++) {
        ({ lines } = await readMergedLogs({
          fleet,
          clusters: ["alpha"],
          filters: names("lens-long"),
        }));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(lines.map((line) => line.text.length)).toEqual([40000, 5]);
    });
  });

  it("following: merged in time order, a container started mid-follow joins, a stopped one says so", async () => {
    const ticker = (tag: string) =>
      `i=0; while true; do i=$((i+1)); echo "${tag} $i"; sleep 0.1; done`;
    await withContainers([[engines.hostA, "lens-f1", ticker("one")]], async () => {
      const controller = new AbortController();
      const stream = await followMergedLogs({
        fleet,
        clusters: ["alpha", "bravo"],
        filters: names("lens-f"),
        query: { tail: 0 },
        windowMs: 1000,
        signal: controller.signal,
      });
      const seen: Array<Record<string, unknown>> = [];
      let started = false;
      let stopped = false;
      const timer = setTimeout(() => controller.abort(), 25_000);
      try {
        for await (const item of stream) {
          seen.push(item as unknown as Record<string, unknown>);
          const texts = seen.map((entry) => entry.text);
          if (!started && texts.length >= 3) {
            started = true;
            await docker(
              engines.adminB,
              "run",
              "-d",
              "--name",
              "lens-f2",
              IMAGE,
              "sh",
              "-c",
              ticker("two"),
            );
          }
          if (!stopped && texts.includes("two 5")) {
            stopped = true;
            await docker(engines.hostA, "stop", "-t", "0", "lens-f1");
          }
          if (seen.some((entry) => entry.status === "stopped")) break;
        }
      } finally {
        clearTimeout(timer);
        controller.abort();
        await docker(engines.adminB, "rm", "-f", "lens-f2").catch(() => undefined);
      }
      const statuses = seen
        .filter((entry) => entry.status)
        .map(
          (entry) =>
            `${(entry.cluster as { name: string }).name}/${(entry.container as { name: string }).name} ${String(entry.status)}`,
        );
      expect(statuses).toEqual(["bravo/lens-f2 joined", "alpha/lens-f1 stopped"]);
      const lines = seen.filter((entry) => entry.text !== undefined);
      expect(lines.some((line) => line.text === "two 1")).toBe(true);
      expect(inOrder(seen.map((entry) => entry.time as string))).toBe(true);
    });
  });
});
