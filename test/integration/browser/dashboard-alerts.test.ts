import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { freePort } from "../../support/ports.ts";
import { until } from "../../support/until.ts";
import { docker, engines, spawnServe, writeConfig } from "../helpers.ts";
import { raw } from "../server-helpers.ts";
import { axeViolations, dashboardAt, openPage, unique } from "./browser.ts";

/**
 * The Alerts view in Debian's Chromium against `docklens serve` itself (the built CLI), with
 * rules that fire on the suite's engines: alpha's `failed` (exited with code 3) and `sick`
 * (unhealthy), the dead cluster (engine down), and a container a test makes die and removes.
 * Firing first, newest first; links to the container and cluster; live; the overview's figure;
 * the empty state of a serve without rules; phone and desktop, light and dark, axe-core clean.
 */
const LABEL = "docklens-test=dash-alerts";
/** `DOCKLENS_SCREENSHOTS=docs` writes the docs' screenshots of the view there too (docs/*.png). */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

/** `docklens serve --json` with `args`; its URL, port, and a close that ends it. */
async function serve(args: string[]) {
  const { child, line, stderr } = await spawnServe(["--json", ...args]);
  if (!line) throw new Error(`serve did not start: ${stderr()}`);
  const url = (JSON.parse(line) as { url: string }).url.replace(/\/$/, "");
  return { url, port: Number(new URL(url).port), close: () => stop(child) };
}
async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

const dash = dashboardAt(async () => {
  const config = await writeConfig(`alerts-${process.pid}.json`, {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { id: 7, name: "bravo", host: engines.hostB },
      { name: "dead", host: "127.0.0.1", port: await freePort(), timeoutMs: 500 },
    ],
    alerts: {
      rules: [
        { name: "failed", when: "exited", filter: ["label=app=failed"] },
        { name: "sick", when: "unhealthy", cluster: "alpha", filter: ["label=app=sick"] },
        { name: "down", when: "engine-down", cluster: "dead" },
        { name: "crashed", when: "exited", filter: [`label=${LABEL}`], cooldown: "0s" },
      ],
    },
  });
  // The later --config wins over the test config spawnServe names.
  return serve(["--config", config]);
});

/** The rows of a section (`firing`, `resolved`): state, rule, cluster, container, cause. */
const rowsOf = (page: Page, state: string) =>
  page
    .locator(`[data-alerts="${state}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row: any) =>
        [...row.querySelectorAll("td")]
          .slice(0, 5)
          .map((td: any) => td.textContent.trim().replace(/\s+/g, " ")),
      ),
    );

describe("the Alerts view", () => {
  it("lists what fires, each linked to its container and cluster, and opens them", async () => {
    const page = await dash.open("#/alerts");
    await expect
      .poll(() => rowsOf(page, "firing"), { timeout: 20_000 })
      .toEqual(
        expect.arrayContaining([
          ["firing", "failed exited", "alpha", "failed", "exited with code 3"],
          ["firing", "sick unhealthy", "alpha", "sick", "health check failing"],
          ["firing", "down engine-down", "dead", "", expect.stringMatching(/\S/)],
        ]),
      );
    // The same alerts as the server's, none left out.
    const body = (await raw(dash.port, "/alerts")).json as { alerts: Array<{ state: string }> };
    const firing = body.alerts.filter((alert) => alert.state === "firing").length;
    expect(await page.locator('[data-alerts="firing"] tbody tr').count()).toBe(firing);
    // Newest first.
    const started = await page
      .locator('[data-alerts="firing"] tbody time')
      .evaluateAll((times) => times.map((time: any) => Date.parse(time.dateTime)));
    expect(started).toEqual([...started].sort((a, b) => b - a));
    // Badges as the rest of the page colours them: red firing.
    const failed = page.locator('[data-alerts="firing"] tr', { hasText: "exited with code 3" });
    expect(await failed.locator(".badge").getAttribute("class")).toBe("badge bad");
    expect(await failed.getByRole("link", { name: "alpha" }).getAttribute("href")).toBe(
      "#/containers?cluster=alpha",
    );
    // An alert with no container links its cause to what it is about: the clusters.
    const down = page.locator('[data-alerts="firing"] tr', { hasText: "engine-down" });
    expect(await down.locator("td.c-cause a").getAttribute("href")).toBe("#/");
    expect(await page.getByTestId("alerts-count").textContent()).toMatch(
      new RegExp(`^${firing} firing, \\d+ resolved recently; read at \\d\\d:\\d\\d:\\d\\d`),
    );
    expect(await axeViolations(page)).toEqual([]);
    await failed.getByRole("link", { name: "failed" }).click();
    // By its id, with the name it had (issue 44).
    await expect
      .poll(() => page.url())
      .toMatch(/#\/cluster\/alpha\/container\/[0-9a-f]{64}\?name=failed$/);
    await expect.poll(() => page.locator("h1").textContent()).toContain("failed");
  });

  it("is live: a container that dies fires at the top, and resolves once removed", async () => {
    const page = await dash.open("#/alerts");
    await page.locator('[data-alerts="firing"] tbody tr').first().waitFor({ timeout: 20_000 });
    const name = unique();
    try {
      await docker(
        engines.hostB,
        "run",
        "--name",
        name,
        "-l",
        LABEL,
        "local/busybox:1",
        "sh",
        "-c",
        "exit 4",
      ).catch(() => undefined);
      // Read again every 5 s: no reload of the page.
      await expect
        .poll(async () => (await rowsOf(page, "firing"))[0], { timeout: 20_000 })
        .toEqual(["firing", "crashed exited", "bravo", name, "exited with code 4"]);
      // By its id, with the name it had (issue 44).
      const id = await docker(engines.hostB, "inspect", "-f", "{{.Id}}", name);
      expect(
        await page
          .locator('[data-alerts="firing"] tr', { hasText: name })
          .getByRole("link", { name })
          .getAttribute("href"),
      ).toBe(`#/cluster/bravo/container/${id}?name=${name}`);
      await docker(engines.hostB, "rm", name);
      await expect
        .poll(async () => (await rowsOf(page, "resolved"))[0], { timeout: 20_000 })
        .toEqual(["resolved", "crashed exited", "bravo", name, "exited with code 4"]);
      const resolved = page.locator('[data-alerts="resolved"] tr', { hasText: name });
      expect(await resolved.locator(".badge").getAttribute("class")).toBe("badge good");
      expect(await resolved.locator("td").last().textContent()).toMatch(
        /ago, after (\d+ seconds?|under a second)$/,
      );
      expect(await rowsOf(page, "firing")).not.toContainEqual(expect.arrayContaining([name]));
    } finally {
      await docker(engines.hostB, "rm", "-f", name).catch(() => undefined);
    }
  });

  it("opens the container the alert was about: a removed one is said, its replacement named", async () => {
    const name = unique();
    const run = (...args: string[]) =>
      docker(engines.hostB, "run", "--name", name, "-l", LABEL, ...args);
    try {
      await run("local/busybox:1", "sh", "-c", "exit 2").catch(() => undefined);
      const id = await docker(engines.hostB, "inspect", "-f", "{{.Id}}", name);
      const alertOf = async () =>
        ((await raw(dash.port, "/alerts")).json as { alerts: any[] }).alerts.find(
          (alert) => alert.container?.id === id,
        );
      const alert = await until(alertOf);
      const link = new URL(alert.link).hash;
      expect(link).toBe(`#/cluster/bravo/container/${id}?name=${name}`);
      // Removed: the page says so, with what the alert recorded.
      await docker(engines.hostB, "rm", name);
      const page = await dash.open(link, undefined, /status of 404/);
      const gone = page.getByTestId("gone-container");
      await expect.poll(() => gone.textContent(), { timeout: 20_000 }).toContain("was removed");
      expect(await gone.textContent()).toContain(name);
      expect(await gone.textContent()).toContain(id);
      expect(await page.getByTestId("replacement").count()).toBe(0);
      expect(await page.locator("h1").textContent()).toContain(name);
      expect(await axeViolations(page)).toEqual([]);
      // Replaced: another container has the name now, and is named as another.
      await run("-d", "local/busybox:1", "sleep", "600");
      const current = await docker(engines.hostB, "inspect", "-f", "{{.Id}}", name);
      await page.reload();
      const replacement = page.getByTestId("replacement");
      await expect.poll(() => replacement.textContent(), { timeout: 20_000 }).toContain(name);
      expect(await page.getByTestId("gone-container").textContent()).toContain(id);
      await replacement.getByRole("link", { name: current.slice(0, 12) }).click();
      await expect.poll(() => page.url()).toContain(`#/cluster/bravo/container/${current}`);
      await expect.poll(() => page.getByTestId("state").count()).toBe(1);
      expect(await page.getByTestId("gone-container").count()).toBe(0);
    } finally {
      await docker(engines.hostB, "rm", "-f", name).catch(() => undefined);
    }
  });

  it("counts the firing alerts in the clusters view's overview, a link to the view", async () => {
    // The dead cluster's 502 is the browser's own console line.
    const page = await dash.open("#/", undefined, /status of 50[24]/);
    const body = (await raw(dash.port, "/alerts")).json as { alerts: Array<{ state: string }> };
    const firing = body.alerts.filter((alert) => alert.state === "firing").length;
    expect(firing).toBeGreaterThanOrEqual(3);
    const figure = page.locator('[data-figure="firing alerts"]');
    await expect.poll(() => figure.locator("strong").textContent()).toBe(String(firing));
    expect(await figure.getAttribute("class")).toContain("bad");
    await figure.click();
    await expect.poll(() => page.url()).toMatch(/#\/alerts$/);
    await page.locator('[data-alerts="firing"] tbody tr').first().waitFor();
  });

  it("says so when there are none, on a serve without rules", async () => {
    const plain = await serve([]);
    const watched = await openPage(dash.browser);
    try {
      await watched.page.goto(`${plain.url}/#/alerts`);
      const empty = watched.page.getByTestId("alerts-empty");
      await expect
        .poll(() => empty.textContent())
        .toMatch(/^\s*No alerts: nothing is firing, and nothing resolved recently\./);
      expect(await watched.page.locator("[data-alerts]").count()).toBe(0);
      expect(await axeViolations(watched.page)).toEqual([]);
      expect(watched.problems).toEqual([]);
    } finally {
      await watched.close();
      await plain.close();
    }
  });
});

describe("at a phone's width and a desktop's, light and dark", () => {
  it("shows the Alerts view without sideways scrolling of the page, axe-core clean", async () => {
    for (const colorScheme of ["light", "dark"] as const)
      for (const [width, height, size] of [
        [390, 844, "phone"],
        [1280, 800, "wide"],
      ] as const) {
        // openPage takes the colour scheme beside the size.
        const viewport = { width, height, colorScheme };
        const page = await dash.open("#/alerts", viewport);
        await page.locator('[data-alerts="firing"] tbody tr').first().waitFor({ timeout: 20_000 });
        const overflow = await page.evaluate(() => {
          const root = (globalThis as any).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect(overflow, `${size} ${colorScheme}`).toBeLessThanOrEqual(0);
        // A phone's row is a card: the table's head is for screen readers only.
        const head = await page.locator('[data-alerts="firing"] thead').boundingBox();
        expect((head?.height ?? 0) <= 1, `${size}`).toBe(size === "phone");
        expect(await axeViolations(page), `${size} ${colorScheme}`).toEqual([]);
        if (KEEP)
          await page.screenshot({
            path: join(KEEP, `dashboard-alerts-${size}-${colorScheme}.png`),
            fullPage: true,
          });
        await page.close();
      }
  }, 120_000);
});
