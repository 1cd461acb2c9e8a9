import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines, withContainer, writeConfigWithHang } from "../helpers.ts";
import { raw } from "../server-helpers.ts";
import { axeViolations, dashboardForFile, liveFleet, openPage, unique } from "./browser.ts";

/**
 * The page drawn from the watch of every cluster's containers (issue 25 item 5, issue 29 defect
 * 1): the containers table and the clusters view follow `docker run` and `docker stop` as they
 * happen, and a first visit draws the engines that answered while a hung one is still asked.
 */
// 15 s: a first page load on a loaded CI lane must come well within it.
const HANG_MS = 15_000;
const dash = dashboardForFile(async () => {
  return { fleet: await liveFleet(await writeConfigWithHang("dashboard-watch.json", HANG_MS)) };
});
/** The browser's own log of a dead (502) or hung (504) engine's answer to the clusters' facts. */
const DOWN = /status of 50[24]/;

describe("a first visit with a hung engine configured", () => {
  it("draws the clusters that answered at once, the hung one asking, then down", async () => {
    const page = await dash.open("#/", undefined, DOWN);
    const state = (name: string) => page.locator(`[data-cluster-state="${name}"]`);
    // The three states from one read of the page, polled within hang's limit: alpha and dead
    // each settle on their own answer.
    const states = () =>
      page
        .locator("[data-cluster-state]")
        .evaluateAll((nodes) =>
          Object.fromEntries(
            nodes
              .map((node: any) => [node.dataset.clusterState, node.textContent])
              .filter(([name]) => ["alpha", "hang", "dead"].includes(name)),
          ),
        );
    await expect
      .poll(states, { timeout: HANG_MS - 3000 })
      .toEqual({ alpha: "up", hang: "asking…", dead: "down" });
    // The overview counts what answered meanwhile.
    await expect
      .poll(async () => Number(await page.locator('[data-figure="running"] strong').textContent()))
      .toBeGreaterThan(0);
    await expect
      .poll(() => state("hang").textContent(), { timeout: HANG_MS + 10_000 })
      .toBe("down");
    expect(await axeViolations(page)).toEqual([]);
  });
});

const row = (page: Page, name: string) =>
  page.locator("tbody tr[data-key]", {
    has: page.locator("td:nth-child(2)", { hasText: new RegExp(`^${name}$`) }),
  });

describe("live from the watch, at a phone's width and a desktop's, light and dark", () => {
  it("the containers table and the clusters view follow docker run and docker stop", async () => {
    for (const colorScheme of ["light", "dark"] as const)
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        const label = `${width} ${colorScheme}`;
        const viewport = { width, height, colorScheme };
        const table = await dash.open("#/containers?cluster=alpha", viewport, DOWN);
        const clusters = await dash.open("#/", viewport, DOWN);
        const count = clusters
          .locator("tr", { has: clusters.locator('[data-cluster-state="alpha"]') })
          .locator("td:nth-child(3)");
        const counts = async () =>
          /^(\d+) \/ (\d+)$/
            .exec((await count.textContent()) ?? "")
            ?.slice(1)
            .map(Number);
        await table.locator("p.count").waitFor({ timeout: 15_000 });
        await expect.poll(counts, { timeout: 10_000 }).toHaveLength(2);
        const [running, total] = (await counts())!;
        const name = unique();
        const reads: string[] = [];
        table.on("request", (request) => reads.push(request.url()));
        await table.getByLabel("Search").fill(name);
        await withContainer(
          engines.hostA,
          ["--name", name, "local/busybox:1", "sleep", "600"],
          async () => {
            const stateOf = () => row(table, name).locator("td.c-state").textContent();
            await expect.poll(stateOf, { timeout: 10_000 }).toMatch(/running/);
            await expect.poll(counts, { timeout: 10_000 }).toEqual([running! + 1, total! + 1]);
            await docker(engines.hostA, "stop", "-t", "0", name);
            await expect.poll(stateOf, { timeout: 10_000 }).toMatch(/exited/);
            await expect.poll(counts, { timeout: 10_000 }).toEqual([running, total! + 1]);
            expect(await axeViolations(table), label).toEqual([]);
            expect(await axeViolations(clusters), label).toEqual([]);
          },
        );
        await expect.poll(() => row(table, name).count(), { timeout: 10_000 }).toBe(0);
        await expect.poll(counts, { timeout: 10_000 }).toEqual([running, total]);
        // Pushed: no list was read again for any of it.
        expect(
          reads.filter((url) => /\/list\//.test(url)),
          label,
        ).toEqual([]);
        await table.close();
        await clusters.close();
      }
  }, 180_000);
});

describe("the watch opened again", () => {
  it("keeps the rows it had until the new stream names its clusters, then drops those it did not", async () => {
    const alpha = (await raw(dash.port, "/list/alpha/containers")).json.containers as unknown[];
    expect(alpha.length).toBeGreaterThan(1);
    const line = (value: object) => `${JSON.stringify(value)}\n`;
    const snapshot = (id: number, name: string, containers: unknown[]) =>
      line({ type: "snapshot", cluster: { id, name }, containers });
    // Each stream the page opens ends at once, and the page opens the next 2 s later: the
    // fleet, then a stream that names nothing yet, then one without the cluster "gone".
    const bodies = [
      snapshot(1, "alpha", alpha) +
        snapshot(99, "gone", alpha.slice(0, 1)) +
        line({ type: "synced" }),
      "",
      snapshot(1, "alpha", alpha) + line({ type: "synced" }),
    ];
    let opened = 0;
    const watched = await openPage(dash.browser);
    try {
      const { page } = watched;
      await page.route("**/list/containers?watch=*", (route) =>
        route.fulfill({
          status: 200,
          contentType: "application/x-ndjson",
          body: bodies[Math.min(opened++, bodies.length - 1)],
        }),
      );
      await page.goto(`${dash.url}/#/containers`);
      const total = () => page.locator("p.count").getAttribute("data-total");
      await expect.poll(total).toBe(String(alpha.length + 1));
      // The second stream opened and ended without a line: what the first said is still shown.
      await expect.poll(() => opened, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => page.getByTestId("live").textContent()).toMatch(/retrying/);
      expect(await total()).toBe(String(alpha.length + 1));
      // The third named alpha alone before `synced`: "gone" went, with its row.
      await expect.poll(() => opened, { timeout: 10_000 }).toBe(3);
      await expect.poll(total).toBe(String(alpha.length));
    } finally {
      await watched.close();
    }
    expect(watched.problems).toEqual([]);
  });
});
