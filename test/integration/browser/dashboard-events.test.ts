import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { floodEvents, removeFlood } from "../event-flood.ts";
import { engines } from "../helpers.ts";
import { axeViolations, dashboardForFile } from "./browser.ts";

/**
 * The Events view of a fleet with a dead engine and an engine whose backlog does not reach the
 * view's 15 minutes (issue 44, items 2 and 9): a row per change of a cluster's state, not one per
 * retry; its error's code, the whole of it on demand; the short backlog said. Phone and wide,
 * light and dark.
 */
const dash = dashboardForFile();
/** The browser's own log of the dead (502) and hung (504) engines' answers. */
const SHOWN = /status of 50[24]/;
const LABEL = "docklens-test=dash-events";
/** `DOCKLENS_SCREENSHOTS=dir` keeps this file's screenshots there too. */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

// More than the 256 events alpha's engine keeps: 150 volumes made and removed, 300 events.
beforeAll(async () => {
  await floodEvents(engines.hostA, LABEL);
}, 120_000);
afterAll(async () => {
  await removeFlood(engines.hostA, LABEL);
});

/** The rows of cluster `name`'s status lines. */
const statusRows = (page: Page, name: string) =>
  page.locator("main tbody tr.status").filter({
    has: page.locator("td:nth-child(2)", { hasText: new RegExp(`^${name}$`) }),
  });

describe("the Events view", () => {
  it("shows a cluster that stays down as one row, updated as it is retried, its error's code", async () => {
    const page = await dash.open("#/events", undefined, SHOWN);
    const dead = statusRows(page, "dead");
    // Retried every 250 ms, then longer: three attempts come within two seconds.
    await expect
      .poll(
        () =>
          dead
            .locator(".tries")
            .textContent()
            .catch(() => ""),
        { timeout: 15_000 },
      )
      .toMatch(/^tried [3-9]\d* times, last at \d\d:\d\d:\d\d$/);
    expect(await dead.count()).toBe(1);
    expect(await dead.locator("td.c-status").textContent()).toMatch(/^\s*disconnected\s/);
    const summary = dead.locator("summary");
    // Its code; the whole error in its title.
    const code = (await summary.textContent())!;
    expect(code).toMatch(/^ENGINE_[A-Z_]+$/);
    const whole = (await summary.getAttribute("title"))!;
    expect(whole).toMatch(new RegExp(`^${code}: \\S`));
    // The whole text on demand.
    await summary.click();
    expect(await dead.locator("details").getAttribute("open")).toBe("");
    expect(await dead.locator("details").textContent()).toContain(whole);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("says when an engine's events do not reach back to the view's start", async () => {
    const page = await dash.open("#/events", undefined, SHOWN);
    const said = page.getByTestId("events-truncated");
    await expect
      .poll(() => said.textContent(), { timeout: 15_000 })
      .toMatch(
        /^\s*alpha: the engine's events reach back only to\s+\d\d:\d\d:\d\d, the last it keeps; its earlier events of the last 15 minutes are not shown\.\s*$/,
      );
    expect(await said.count()).toBe(1);
  });
});

describe("at a phone's width and a desktop's, light and dark", () => {
  it("shows the view without sideways scrolling, a down cluster's row a line or two", async () => {
    for (const colorScheme of ["light", "dark"] as const)
      for (const [width, height, size] of [
        [390, 844, "phone"],
        [1280, 800, "wide"],
      ] as const) {
        // openPage takes the colour scheme beside the size.
        const viewport = { width, height, colorScheme };
        const page = await dash.open("#/events", viewport, SHOWN);
        const dead = statusRows(page, "dead");
        await expect.poll(() => dead.locator(".tries").count(), { timeout: 15_000 }).toBe(1);
        await page.getByTestId("events-truncated").waitFor();
        const path = join(dash.shots, `events-${size}-${colorScheme}.png`);
        await page.screenshot({ path });
        if (KEEP) await copyFile(path, join(KEEP, `dashboard-events-${size}-${colorScheme}.png`));
        const overflow = await page.evaluate(() => {
          const root = (globalThis as any).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect(overflow, `${size} ${colorScheme}`).toBeLessThanOrEqual(0);
        const box = await dead.boundingBox();
        expect(box!.height, `${size} ${colorScheme}`).toBeLessThanOrEqual(
          size === "phone" ? 100 : 60,
        );
        expect(await axeViolations(page), `${size} ${colorScheme}`).toEqual([]);
      }
  }, 120_000);
});
