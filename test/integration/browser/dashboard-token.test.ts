import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines, writeConfig } from "../helpers.ts";
import { dashboardForFile, liveFleet } from "./browser.ts";

/**
 * The dashboard of a server that wants a token: the prompt, a wrong token, the token sent on
 * every call (streams too) and never in a URL, and a scoped token that sees only its clusters.
 */
const FULL = "dash-full-token";
const SCOPED = "dash-bravo-token";
const dash = dashboardForFile(async () => {
  const config = JSON.parse(await readFile(engines.configPath, "utf8"));
  const sha256 = createHash("sha256").update(SCOPED).digest("hex");
  const path = await writeConfig("dashboard-tokens.json", {
    ...config,
    tokens: [{ name: "bravo-only", sha256, clusters: ["bravo"] }],
  });
  return { token: FULL, fleet: await liveFleet(path) };
});
/** The only errors allowed: the browser's own log of the 401 answers that made the page ask. */
const ASKED = /status of 401/;
/** The page's notice, or null now: an absent one is not waited for (Playwright's 30 s). */
const noticeOf = (page: Page) =>
  page
    .locator(".notice")
    .textContent({ timeout: 500 })
    .catch(() => null);

/** Open `hash`, answer the prompt with `token`, and wait for the prompt to go. */
async function signIn(hash: string, token: string): Promise<Page> {
  const page = await dash.open(hash, undefined, ASKED);
  await page.getByLabel("Token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await page.getByLabel("Token", { exact: true }).waitFor({ state: "detached" });
  return page;
}

describe("a server with a token", () => {
  it("serves the page without it, asks for it in a Token field, and says so when it is wrong", async () => {
    const page = await dash.open("#/", undefined, ASKED);
    const requests: Array<{ url: string; authorization?: string }> = [];
    page.on("request", (request) =>
      requests.push({ url: request.url(), authorization: request.headers().authorization }),
    );
    await page.reload();
    const field = page.getByLabel("Token", { exact: true });
    await field.waitFor();
    expect(await field.getAttribute("type")).toBe("password");
    await field.fill("not-the-token");
    await page.getByRole("button", { name: "Use token" }).click();
    await expect.poll(() => noticeOf(page)).toMatch(/refused/);
    await page.getByLabel("Token", { exact: true }).fill(FULL);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect.poll(() => page.locator("[data-cluster-state]").count()).toBe(4);
    // Kept for the tab only; never in a URL.
    expect(
      await page.evaluate(() => (globalThis as any).sessionStorage.getItem("docklens.token")),
    ).toBe(FULL);
    expect(requests.some((request) => request.url.includes(FULL))).toBe(false);
    // The page's watch of the container lists, which every view of the clusters draws from.
    expect(requests.filter((r) => r.url.includes("/list/containers")).at(-1)?.authorization).toBe(
      `Bearer ${FULL}`,
    );
    // A reload keeps the token: no prompt.
    await page.reload();
    await expect.poll(() => page.locator("[data-cluster-state]").count()).toBe(4);
    expect(await page.getByLabel("Token", { exact: true }).count()).toBe(0);
  });

  it("asks once, then prompts: one 401 on a first load, not one per read", async () => {
    const page = await dash.open("#/", undefined, ASKED);
    // The first load's answers all in (it asked), before counting the next one's.
    await page.getByLabel("Token", { exact: true }).waitFor();
    const refused: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 401) refused.push(new URL(response.url()).pathname);
    });
    // The first read (the watch, asked before the view loads) answered last, as a slower route
    // may be: the view's own reads are sent, and answered, before the prompt replaces it.
    await page.route("**/list/containers?watch=true", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.reload();
    await page.getByLabel("Token", { exact: true }).waitFor();
    // Past the page's retry time (2 s): nothing asks again without a token.
    await page.waitForTimeout(2500);
    expect(refused).toHaveLength(1);
  });

  it("says a token that cannot be sent (not ASCII) is not valid, and asks again", async () => {
    const page = await dash.open("#/", undefined, ASKED);
    const field = page.getByLabel("Token", { exact: true });
    await field.fill("tökén");
    await page.getByRole("button", { name: "Use token" }).click();
    await expect.poll(() => noticeOf(page)).toMatch(/not valid/);
    expect(await field.count()).toBe(1);
    // It stays past the page's retry time (2 s): the watch, refused without a token, waits for one.
    await page.waitForTimeout(2500);
    expect(await noticeOf(page)).toMatch(/not valid/);
    // One kept from before (another page's) is refused the same way, never as a network error.
    await page.evaluate(() =>
      (globalThis as any).sessionStorage.setItem("docklens.token", "tökén"),
    );
    await page.reload();
    await expect.poll(() => noticeOf(page)).toMatch(/not valid/);
    await page.waitForTimeout(2500);
    expect(await noticeOf(page)).toMatch(/not valid/);
    expect(await page.locator("main").textContent()).not.toMatch(/NETWORK/);
    await field.fill(FULL);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect.poll(() => page.locator("[data-cluster-state]").count()).toBe(4);
  });

  it("forgets the token on demand, and asks again", async () => {
    const page = await signIn("#/", FULL);
    await expect.poll(() => page.locator("[data-cluster-state]").count()).toBe(4);
    await page.getByRole("button", { name: "Forget token" }).click();
    await page.getByLabel("Token", { exact: true }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as any).sessionStorage.getItem("docklens.token")),
    ).toBeNull();
    expect(await page.locator(".notice").count()).toBe(0);
  });

  it("sends the token on streams too: a container's logs follow", async () => {
    const page = await signIn("#/cluster/bravo/container/b-tty", FULL);
    await expect
      .poll(() => page.getByTestId("logs").textContent(), { timeout: 10_000 })
      .toMatch(/tty \d+/);
  });

  it("a scoped token sees only its clusters, in every view", async () => {
    const page = await signIn("#/", SCOPED);
    await expect.poll(() => page.locator("[data-cluster-state]").count()).toBe(1);
    expect(await page.locator("[data-cluster-state]").getAttribute("data-cluster-state")).toBe(
      "bravo",
    );
    await page.goto(`${dash.url}/#/containers`);
    const bravo = (await docker(engines.hostB, "ps", "-a", "-q"))
      .split("\n")
      .filter(Boolean).length;
    await expect
      .poll(async () => Number(await page.locator("p.count").getAttribute("data-total")))
      .toBe(bravo);
    const clusters = await page.locator("tbody tr[data-key] td:first-child").allTextContents();
    expect(new Set(clusters)).toEqual(new Set(["bravo"]));
  });
});
