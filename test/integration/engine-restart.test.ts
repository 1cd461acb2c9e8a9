import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listContainers } from "../../src/core/containers/containers.ts";
import { loadFleet, resolveCluster, type Fleet } from "../../src/core/engine/fleet.ts";
import { hubStreams } from "../../src/core/hub/event-hub.ts";
import { docker, writeConfig } from "./helpers.ts";

/**
 * An engine restarted under the mirror (issue 25): a throwaway dockerd of this test's own, in the
 * run's temp dir, stopped and started again on the same data, so the fixture engines stay as
 * they are for the other tests.
 */
const run = promisify(execFile);
const ENGINE_SH = join(import.meta.dirname, "../../scripts/engine.sh");
let dir: string;
let host: string;
let live: Fleet;
let direct: Fleet;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-restart-"));
  host = (await run("bash", [ENGINE_SH, "start", dir])).stdout.trim();
  const config = await writeConfig("restart.json", { clusters: [{ name: "restarted", host }] });
  // A grace period longer than the restart: the mirror stays open through it.
  live = await loadFleet({ configPath: config, live: true, graceMs: 120_000 });
  direct = await loadFleet({ configPath: config });
}, 120_000);
afterAll(async () => {
  live?.close();
  direct?.close();
  if (dir) await run("bash", [ENGINE_SH, "stop", dir]);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const states = (list: { containers: Array<{ Id: string; State: string }> }) =>
  Object.fromEntries(list.containers.map((c) => [c.Id, c.State]));

/**
 * Kill the engine as a crash does (no event said it) and start it again on the same data, which
 * stops the containers it finds running.
 */
async function restartEngine(): Promise<void> {
  const pid = Number(await readFile(join(dir, "docker.pid"), "utf8"));
  process.kill(pid, "SIGKILL");
  for (let alive = true; alive; await sleep(100))
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
  await run("bash", [ENGINE_SH, "start", dir]);
}

describe("an engine restarted under the mirror", () => {
  it("re-lists it: what stopped with the engine and what came after are served", async () => {
    const running = await docker(host, "run", "-d", "local/busybox:1", "sleep", "600");
    const served = await listContainers("restarted", { fleet: live });
    expect(states(served)[running]).toBe("running");
    const cluster = resolveCluster("restarted", { fleet: live });
    const opened = hubStreams(cluster, { fleet: live }).opened;

    await restartEngine();
    const created = await docker(host, "create", "local/busybox:1", "true");
    let mirrored: Record<string, string> = {};
    let engine: Record<string, string> = {};
    for (const end = Date.now() + 30_000; Date.now() < end; await sleep(200)) {
      try {
        mirrored = states(await listContainers("restarted", { fleet: live }));
        engine = states(await listContainers("restarted", { fleet: direct }));
      } catch {
        continue; // the mirror is down until the hub has reconnected
      }
      if (JSON.stringify(mirrored) === JSON.stringify(engine)) break;
    }
    expect(mirrored).toEqual(engine);
    expect(mirrored[running]).toBe("exited");
    expect(mirrored[created]).toBe("created");
    expect(hubStreams(cluster, { fleet: live }).opened).toBeGreaterThan(opened);
  }, 90_000);
});
