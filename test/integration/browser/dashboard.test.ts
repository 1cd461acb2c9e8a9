import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines, withContainer } from "../helpers.ts";
import { raw } from "../server-helpers.ts";
import { axeViolations, dashboardForFile, openPage, unique } from "./browser.ts";

/**
 * The dashboard in Debian's Chromium against the suite's real engines (alpha on a socket, bravo
 * on TCP, a dead and a hung endpoint): the CSP, the clusters view against the JSON interface,
 * and the containers table against the docker CLI, live (dashboard-container.test.ts has a
 * container's page, the other views and the screenshots). No console error and no CSP
 * violation on any page: dashboardForFile checks every page after its test.
 */
const dash = dashboardForFile();
const open = dash.open;

const count = async (host: string) =>
  (await docker(host, "ps", "-a", "-q")).split("\n").filter(Boolean).length;
/** The containers table's own count of the rows it has, shown and total. */
const tableCount = async (page: Page) => {
  // Both from one render: one read of the page.
  const [count] = await page.locator("p.count").evaluateAll((nodes) =>
    nodes.map((node: any) => ({
      shown: Number(node.dataset.shown),
      total: Number(node.dataset.total),
    })),
  );
  return count ?? { shown: NaN, total: NaN };
};

describe("the page's CSP", () => {
  it("refuses inline script, and the tests' watcher sees the violation", async () => {
    const watched = await openPage(dash.browser);
    try {
      await watched.page.goto(`${dash.url}/#/drift`);
      await watched.page.evaluate(() => {
        const doc = (globalThis as any).document;
        const script = doc.createElement("script");
        script.textContent = "globalThis.__inline = 1";
        doc.body.append(script);
      });
      await expect.poll(() => watched.problems.join("\n")).toMatch(/CSP violation: script-src/);
      expect(await watched.page.evaluate(() => (globalThis as any).__inline)).toBeUndefined();
    } finally {
      await watched.close();
    }
  });
});

describe("the clusters view", () => {
  it("agrees with /list/cluster, the dead and hung engines shown down with their reason", async () => {
    const page = await open("#/");
    const body = (await raw(dash.port, "/list/cluster")).json;
    for (const cluster of body.clusters) {
      const state = page.locator(`[data-cluster-state="${cluster.name}"]`);
      await expect.poll(() => state.textContent()).toBe(cluster.error ? "down" : "up");
    }
    expect(body.clusters.filter((c: any) => c.error).map((c: any) => c.name)).toEqual([
      "dead",
      "hang",
    ]);
    const alpha = body.clusters.find((c: any) => c.name === "alpha");
    const row = page.locator("tr", { has: page.locator('[data-cluster-state="alpha"]') });
    await expect.poll(() => row.textContent()).toContain(alpha.docker.ServerVersion);
    expect(await row.textContent()).toContain(
      `${alpha.docker.ContainersRunning} / ${alpha.docker.Containers}`,
    );
    expect(
      await page.locator("tr", { has: page.locator('[data-cluster-state="dead"]') }).textContent(),
    ).toMatch(/ENGINE_UNREACHABLE/);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("the containers view", () => {
  it("holds every container of every engine, as docker ps -a counts them", async () => {
    const page = await open("#/containers");
    await page.locator("p.count").waitFor();
    // Other test files start and remove containers meanwhile: the live table catches up.
    await expect
      .poll(
        async () =>
          (await tableCount(page)).total -
          (await count(engines.hostA)) -
          (await count(engines.hostB)),
        {
          timeout: 15_000,
        },
      )
      .toBe(0);
    // The dead and hung clusters are said to be down, and the table still came.
    await expect
      .poll(() => page.locator(".notice").allTextContents())
      .toEqual([
        expect.stringMatching(/^dead is down: ENGINE_UNREACHABLE/),
        expect.stringMatching(/^hang is down: ENGINE_TIMEOUT/),
      ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("searches as you type and filters by status and health, and the URL says so", async () => {
    const page = await open("#/containers");
    await page.locator("p.count").waitFor();
    await page.getByLabel("Search").fill("shop");
    await expect
      .poll(() => page.locator("tbody tr[data-key] td:nth-child(2)").allTextContents())
      .toEqual(["shop-web", "shop-db"]);
    await expect.poll(() => page.url()).toContain("q=shop");
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Status").selectOption("paused");
    await expect
      .poll(() => page.locator("tbody tr[data-key] td:nth-child(2)").allTextContents())
      .toEqual(["frozen"]);
    await page.getByLabel("Status").selectOption("");
    await page.getByLabel("Health").selectOption("unhealthy");
    await expect
      .poll(() => page.locator("tbody tr[data-key] td:nth-child(2)").allTextContents())
      .toEqual(["sick"]);
    // A deep link gives the same view.
    const shared = await open(`#/containers?q=shop&cluster=bravo`);
    await expect
      .poll(() => shared.locator("tbody tr[data-key] td:nth-child(2)").allTextContents())
      .toEqual(["shop-db"]);
    expect(await shared.getByLabel("Search").inputValue()).toBe("shop");
    // The menu's link is the whole list again: the controls follow the URL.
    await shared.getByRole("link", { name: "Containers" }).click();
    await expect.poll(() => shared.getByLabel("Search").inputValue()).toBe("");
    await expect
      .poll(async () => {
        const { shown, total } = await tableCount(shared);
        return shown === total && shown > 0;
      })
      .toBe(true);
  });

  it("sorts by a column from the keyboard and groups by compose project", async () => {
    const page = await open("#/containers?cluster=alpha");
    await page.locator("p.count").waitFor();
    const names = () => page.locator("tbody tr[data-key] td:nth-child(2)").allTextContents();
    await page.getByRole("button", { name: "Name" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await names())[0]).toBe("app-a");
    expect(
      await page
        .locator("th", { has: page.getByRole("button", { name: "Name" }) })
        .getAttribute("aria-sort"),
    ).toBe("ascending");
    await page.getByLabel("Group by project").check();
    await expect
      .poll(() => page.locator("tr.group th").allTextContents())
      .toEqual([
        expect.stringMatching(/^\s*shop\s*\(1\)/),
        expect.stringMatching(/^\s*no project/),
      ]);
  });

  it("shows a container started meanwhile, and its removal, without a reload", async () => {
    const page = await open("#/containers");
    await page.locator("p.count").waitFor();
    const name = unique();
    const row = page.locator("tbody tr[data-key] td:nth-child(2)", { hasText: name });
    await page.getByLabel("Search").fill(name);
    await withContainer(engines.hostA, ["--name", name, "local/busybox:1", "sleep", "600"], () =>
      expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1),
    );
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
  });
});
