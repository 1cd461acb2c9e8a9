import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines, withContainer, writeConfig } from "../helpers.ts";
import { startServer } from "../server-helpers.ts";
import {
  axeViolations,
  clustersSettled,
  dashboardForFile,
  liveFleet,
  openPage,
  unique,
} from "./browser.ts";

/**
 * The dashboard in Debian's Chromium against the suite's real engines: a container's page (its
 * facts, logs that follow, stats, processes), hostile strings shown as text, the other views
 * with axe-core, and the page at a phone's width and a desktop's, light and dark.
 */
const dash = dashboardForFile();
const open = dash.open;

describe("a container's page", () => {
  it("shows its facts with the environment redacted, its logs, stats and processes", async () => {
    const page = await open("#/cluster/alpha/container/web");
    const logs = page.getByTestId("logs");
    await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toMatch(/out \d+/);
    // stderr lines are apart.
    expect(await logs.locator(".line.stderr").count()).toBeGreaterThan(0);
    const text = await page.locator("main").textContent();
    expect(text).toContain("DB_PASSWORD");
    expect(text).toContain("<redacted>");
    expect(text).not.toContain("hunter2");
    expect(await page.locator("table.kv", { hasText: "Labels" }).textContent()).toMatch(
      /app\s*web/,
    );
    // Stats come live, in docker stats' units as the Stats view's (memory binary, I/O
    // decimal), with a rate from the second sample on (which may have come by this read, as it
    // did once in CI); the processes of the ticker are listed.
    const stats = page.getByRole("region", { name: "Stats" });
    await expect.poll(() => stats.textContent(), { timeout: 10_000 }).toMatch(/CPU\s*\d+\.\d\d%/);
    expect(await stats.textContent()).toMatch(
      /Memory\s*[\d.]+(B|KiB|MiB|GiB) of [\d.]+(B|KiB|MiB|GiB) \(\d+\.\d\d%\)\s*Network in\s*[\d.]+(B|kB|MB|GB)( \([\d.]+(B|kB|MB|GB)\/s\))?Network out/,
    );
    await expect
      .poll(() => page.getByRole("region", { name: "Processes" }).textContent())
      .toContain("sleep");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("follows a line a container writes, filters, shows times and downloads", async () => {
    // A container of its own: the fixtures' output is what other test files read.
    const name = unique();
    const args = ["--name", name, "local/busybox:1", "sh", "-c", "echo started; sleep 600"];
    await withContainer(engines.hostA, args, async () => {
      const page = await open(`#/cluster/alpha/container/${name}`);
      const logs = page.getByTestId("logs");
      await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain("started");
      const mark = unique();
      await docker(engines.hostA, "exec", name, "sh", "-c", `echo ${mark} > /proc/1/fd/1`);
      await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain(mark);
      // The filter highlights matches.
      await page.getByTestId("log-filter").fill(mark);
      await expect.poll(() => logs.locator("mark").allTextContents()).toEqual([mark]);
      // Times on demand: the engine's RFC 3339 time of each line.
      expect(await logs.locator(".time").count()).toBe(0);
      await page.getByLabel("Timestamps").check();
      expect(await logs.locator(".time").first().textContent()).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/,
      );
      // The download is the lines as text, made in the browser.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${name}.log`);
      const saved = await readFile(await download.path(), "utf8");
      expect(saved).toMatch(new RegExp(`^\\S+Z ${mark}$`, "m"));
    });
  });

  it("shows the last health probe's output", async () => {
    const page = await open("#/cluster/alpha/container/sick");
    await expect
      .poll(() => page.locator("pre.probe").textContent(), { timeout: 10_000 })
      .toContain("probe failed");
  });

  it("renders hostile labels and log lines as text and runs none of them", async () => {
    const name = unique();
    const img = "<img src=x onerror=window.__pwned=1>";
    const script = "<script>window.__pwned=2</script>";
    const args = [
      "--name",
      name,
      "-l",
      `note=${img}`,
      "-l",
      `other=${script}`,
      "local/busybox:1",
      "sh",
      "-c",
      `echo '${img}'; echo '${script}' >&2; printf '\\033[31mred\\033[0m\\n'; sleep 600`,
    ];
    await withContainer(engines.hostA, args, async () => {
      const page = await open(`#/cluster/alpha/container/${name}`);
      const logs = page.getByTestId("logs");
      await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain(script);
      expect(await logs.textContent()).toContain(img);
      expect(await page.locator("table.kv", { hasText: "Labels" }).textContent()).toContain(img);
      // ANSI red became a class on a text span, not markup.
      expect(await logs.locator(".fg-1").allTextContents()).toEqual(["red"]);
      expect(await page.locator("main img").count()).toBe(0);
      expect(await page.locator("main script").count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
      // On the containers table too.
      await page.goto(`${dash.url}/#/containers?label=note`);
      await expect
        .poll(() => page.locator("tbody tr[data-key]").count(), { timeout: 10_000 })
        .toBe(1);
      expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    });
  });
});

describe("the other views", () => {
  it.each([
    ["#/cluster/alpha/images", "local/busybox:1"],
    ["#/cluster/alpha/volumes", "scratch"],
    ["#/cluster/alpha/networks", "lens-net"],
    ["#/drift", "local/app:1"],
  ])("%s shows its list and passes axe", async (hash, expected) => {
    const page = await open(hash);
    await expect
      .poll(() => page.locator("main table").first().textContent(), { timeout: 10_000 })
      .toContain(expected);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("the events view shows the merged stream live, and one cluster's from its link", async () => {
    const page = await open("#/events");
    await page.locator("main tbody").waitFor();
    const name = unique();
    await docker(engines.hostA, "create", "--name", name, "local/busybox:1", "true");
    await docker(engines.hostA, "rm", name);
    const body = page.locator("main tbody");
    await expect.poll(() => body.textContent(), { timeout: 10_000 }).toContain(name);
    // The dead cluster's status line; no health-probe exec noise unless asked for.
    expect(await body.textContent()).toMatch(/dead\s*status\s*disconnected/);
    expect(await body.textContent()).not.toContain("exec_");
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${dash.url}/#/events?cluster=bravo`);
    await expect.poll(() => page.locator("h1").textContent()).toMatch(/^\s*Events\s+of bravo$/);
    const other = unique();
    await docker(engines.hostA, "create", "--name", other, "local/busybox:1", "true");
    await docker(engines.hostA, "rm", other);
    await docker(engines.adminB, "create", "--name", other, "local/busybox:1", "true");
    await docker(engines.adminB, "rm", other);
    await expect.poll(() => body.textContent(), { timeout: 10_000 }).toContain(other);
    expect(await page.locator("main tbody td:nth-child(2)").allTextContents()).toEqual(
      expect.arrayContaining(["bravo"]),
    );
    expect(await page.locator("main tbody td:nth-child(2)", { hasText: "alpha" }).count()).toBe(0);
  });
});

/**
 * Where the docs' screenshots go, when asked: `DOCKLENS_SCREENSHOTS=docs npx vitest run
 * test/integration/browser -t width` (or any folder) writes dashboard.png, dashboard-phone.png,
 * dashboard-clusters-dark.png and dashboard-container-light.png there too (the docs show docs/*.png).
 */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

/**
 * True once a docs screenshot's page has what it shows: every cluster answered or given up on
 * (none still "asking…"), or a container's stats with a rate, which takes two samples.
 */
async function settled(page: Page, view: string): Promise<boolean> {
  if (view === "clusters") return clustersSettled(page);
  return (await page.getByText("/s)").count()) > 0;
}

/** The parts of a container's header, each's words: "running | Up 3 minutes | image x | cluster a". */
const partsOf = (header: Locator) =>
  header.evaluate((node: any) =>
    [...node.children].map((part: any) => part.textContent.replace(/\s+/g, " ").trim()).join(" | "),
  );

describe("at a phone's width", () => {
  it("fits the clusters to 390 pixels, a down cluster's reason one line, whole on a tap", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const viewport = { width: 390, height: 844, colorScheme };
      // The down clusters' facts are read and refused: the browser logs their 502 and 504.
      const page = await open("#/", viewport, /status of 50[24]/);
      await expect.poll(() => clustersSettled(page), { timeout: 15_000 }).toBe(true);
      const widths = await page.locator("table.data").evaluate((table: any) => ({
        table: table.scrollWidth,
        screen: (globalThis as any).document.documentElement.clientWidth,
      }));
      expect(widths.table).toBeLessThanOrEqual(widths.screen);
      const headers = await page
        .locator("table.data thead th")
        .evaluateAll((all) =>
          all.filter((th: any) => th.offsetParent).map((th: any) => th.textContent.trim()),
        );
      expect(headers).toEqual(["Cluster", "State", "Containers (running / total)"]);
      const reason = page.locator('[data-reason="dead"] summary');
      const lines = () =>
        reason.evaluate((summary: any) => {
          const style = (globalThis as any).getComputedStyle(summary);
          return Math.round(summary.getBoundingClientRect().height / parseFloat(style.lineHeight));
        });
      expect(await lines()).toBe(1);
      expect(await reason.textContent()).toMatch(/^ENGINE_UNREACHABLE: \S/);
      await reason.click();
      expect(await page.locator('[data-reason="dead"]').getAttribute("open")).toBe("");
      expect(await lines()).toBeGreaterThan(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(dash.shots, `clusters-phone-${colorScheme}.png`) });
    }
  });

  it("heads a container's page with its state, since when, its image and its cluster", async () => {
    const running = await open("#/cluster/alpha/container/web", { width: 390, height: 844 });
    const header = running.getByTestId("container-header");
    await expect
      .poll(() => partsOf(header), { timeout: 10_000 })
      .toMatch(
        /^running \| Up \d+ (seconds?|minutes?|hours?|days?) \| image local\/busybox:1 \| cluster alpha$/,
      );
    // Above the logs, on a phone's first screen.
    const bottom = await header.evaluate((node: any) => node.getBoundingClientRect().bottom);
    expect(bottom).toBeLessThan(844 / 2);
    const exited = await open("#/cluster/alpha/container/failed");
    await expect
      .poll(() => partsOf(exited.getByTestId("container-header")))
      .toMatch(/^exited \| Exited \(3\) \d+ \w+ ago \| image local\/busybox:1 \| cluster alpha$/);
    await running.screenshot({ path: join(dash.shots, "container-phone.png") });
  });

  it("counts one engine down as one, not as 'engines'", async () => {
    // A fleet of one engine that answers and one that is down.
    const config = JSON.parse(await readFile(engines.configPath, "utf8"));
    const path = await writeConfig("dashboard-one-down.json", {
      ...config,
      clusters: config.clusters.filter((c: any) => ["alpha", "dead"].includes(c.name)),
    });
    const server = await startServer({ log: false, fleet: await liveFleet(path) });
    const watched = await openPage(dash.browser, { width: 390, height: 844 });
    try {
      await watched.page.goto(`${server.url}/#/`);
      const figure = (label: string) =>
        watched.page.locator(`[data-figure="${label}"]`).textContent();
      // The dead engine may be counted before alpha's first answer arrives: wait for both.
      await expect
        .poll(async () => `${await figure("engines up")} / ${await figure("engines down")}`, {
          timeout: 15_000,
        })
        .toMatch(/^\s*1 engine up\s*\/\s*1 engine down\s*$/);
    } finally {
      await watched.close();
      await server.close();
    }
    expect(watched.problems.filter((problem) => !/status of 502/.test(problem))).toEqual([]);
  });

  it("is usable at 390 pixels, with no horizontal overflow of the page itself", async () => {
    const page = await open("#/containers", { width: 390, height: 844 });
    await page.locator("p.count").waitFor();
    // Every cluster answered or given up on: the hung one's notice is part of the page.
    await page.getByTestId("waiting").waitFor({ state: "detached" });
    const overflow = await page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(dash.shots, "containers-phone.png") });
    if (KEEP) await page.screenshot({ path: join(KEEP, "dashboard-phone.png") });
    expect(await axeViolations(page)).toEqual([]);
  });

  it("and at a desktop's, in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const watched = await openPage(dash.browser, { width: 1280, height: 720, colorScheme });
      try {
        await watched.page.goto(`${dash.url}/#/containers?sort=cluster`);
        await watched.page.locator("p.count").waitFor();
        await watched.page.getByTestId("waiting").waitFor({ state: "detached" });
        await watched.page.screenshot({ path: join(dash.shots, `containers-${colorScheme}.png`) });
        if (KEEP && colorScheme === "light")
          await watched.page.screenshot({ path: join(KEEP, "dashboard.png") });
        // The docs' other screenshots: the clusters in dark, a container in light.
        const more =
          colorScheme === "dark"
            ? ["#/", "clusters"]
            : ["#/cluster/alpha/container/web", "container"];
        await watched.page.goto(`${dash.url}/${more[0]}`);
        await watched.page.getByRole("heading", { level: 1 }).waitFor();
        await expect.poll(() => settled(watched.page, more[1]!), { timeout: 15_000 }).toBe(true);
        const file = `dashboard-${more[1]}-${colorScheme}.png`;
        await watched.page.screenshot({ path: join(dash.shots, file), fullPage: true });
        if (KEEP) await watched.page.screenshot({ path: join(KEEP, file), fullPage: true });
        expect(await axeViolations(watched.page)).toEqual([]);
      } finally {
        await watched.close();
      }
      expect(watched.problems).toEqual([]);
    }
  });
});
