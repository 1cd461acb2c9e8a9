import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines } from "../helpers.ts";
import { raw } from "../server-helpers.ts";
import { axeViolations, clustersSettled, dashboardForFile } from "./browser.ts";

/**
 * The operator's views in Debian's Chromium against the suite's real engines: Stats (every
 * running container, live, sortable, with its cluster), Disk usage (docker system df's rows per
 * cluster, and the -v detail on demand) and the overview above the clusters table (each figure a
 * link to the filtered view); at a phone's width and a desktop's, light and dark, axe-core clean.
 */
const dash = dashboardForFile();
const open = dash.open;
/** `DOCKLENS_SCREENSHOTS=docs` writes the docs' screenshots of these views there too (docs/*.png). */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

const running = async (host: string, cluster: string) =>
  (await docker(host, "ps", "--filter", "status=running", "--format", "{{.Names}}"))
    .split("\n")
    .filter(Boolean)
    .map((name) => `${cluster}/${name}`);

/** The stats table's cells, read at once (a new round may come between two reads). */
const statsCells = (page: Page) =>
  page
    .locator("table.data tbody tr")
    .evaluateAll((rows) =>
      rows.map((row: any) =>
        [...row.querySelectorAll("td")].map((td: any) => td.textContent.trim()),
      ),
    );
/** `1.5MiB`, `980kB`, `0B` in bytes. */
const bytesOf = (text: string) => {
  const [, number, unit] = /^([\d.]+)(\w+)$/.exec(text)!;
  const units = ["B", "kB", "MB", "GB", "KiB", "MiB", "GiB"];
  const scale = [1, 1e3, 1e6, 1e9, 1024, 1024 ** 2, 1024 ** 3][units.indexOf(unit!)]!;
  return Number(number) * scale;
};
const sortedBy = (values: number[], desc: boolean) =>
  values.every((value, i) => i === 0 || (desc ? values[i - 1]! >= value : values[i - 1]! <= value));

describe("the Stats view", () => {
  it("lists every running container of both engines with its cluster, live", async () => {
    const page = await open("#/stats");
    const expected = [
      ...(await running(engines.hostA, "alpha")),
      ...(await running(engines.hostB, "bravo")),
    ].sort();
    await expect
      .poll(
        async () => (await statsCells(page)).map(([cluster, name]) => `${cluster}/${name}`).sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual(expected);
    const headers = await page.locator("table.data thead th").allTextContents();
    expect(headers.map((header) => header.trim())).toEqual(
      expect.arrayContaining(["Cluster", "CPU %", "Mem usage / limit", "Net I/O", "Block I/O"]),
    );
    // docker's units: a percentage, binary memory, decimal I/O.
    const [first] = await statsCells(page);
    expect(first![2]).toMatch(/^\d+\.\d\d%$/);
    expect(first![3]).toMatch(/^[\d.]+(B|KiB|MiB|GiB) \/ [\d.]+(B|KiB|MiB|GiB)$/);
    expect(first![5]).toMatch(/^[\d.]+(B|kB|MB|GB) \/ [\d.]+(B|kB|MB|GB)$/);
    // Busiest first.
    expect(
      sortedBy(
        (await statsCells(page)).map((cells) => parseFloat(cells[2])),
        true,
      ),
    ).toBe(true);
    // The down engines in one line, their reasons a click away.
    const failures = page.getByTestId("failures");
    expect(await failures.locator("summary").textContent()).toBe("Not read: dead, hang");
    await failures.locator("summary").click();
    await expect
      .poll(() => failures.locator("li").first().textContent())
      .toMatch(/^\s*dead: ENGINE_UNREACHABLE/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("sorts by CPU, memory, network and block I/O from the column headers", async () => {
    const page = await open("#/stats?cluster=alpha");
    await expect
      .poll(async () => (await statsCells(page)).length, { timeout: 20_000 })
      .toBeGreaterThan(2);
    for (const [label, column, value] of [
      ["CPU %", 2, (text: string) => parseFloat(text)],
      ["Mem usage / limit", 3, (text: string) => bytesOf(text.split(" / ")[0]!)],
      [
        "Net I/O",
        5,
        (text: string) =>
          text
            .split(" / ")
            .map(bytesOf)
            .reduce((a, b) => a + b),
      ],
      [
        "Block I/O",
        6,
        (text: string) =>
          text
            .split(" / ")
            .map(bytesOf)
            .reduce((a, b) => a + b),
      ],
    ] as const) {
      const header = page.getByRole("button", { name: label });
      await header.click();
      const th = page.locator("th", { has: header });
      expect(await th.getAttribute("aria-sort")).toBe("ascending");
      // Rounds keep coming: the order holds in each.
      const values = (await statsCells(page)).map((cells) => value(cells[column]));
      // Shown rounded: equal texts may stand for values in either order.
      expect(sortedBy(values, false)).toBe(true);
      await header.click();
      expect(await th.getAttribute("aria-sort")).toBe("descending");
      expect(
        sortedBy(
          (await statsCells(page)).map((cells) => value(cells[column])),
          true,
        ),
      ).toBe(true);
    }
    expect((await statsCells(page)).every(([cluster]) => cluster === "alpha")).toBe(true);
  });
});

describe("the Disk usage view", () => {
  it("shows docker system df's rows for each engine, and the detail on demand", async () => {
    const page = await open("#/disk-usage");
    for (const [cluster, host] of [
      ["alpha", engines.hostA],
      ["bravo", engines.hostB],
    ] as const) {
      const section = page.locator(`section[data-cluster="${cluster}"]`);
      const df = (
        await docker(
          host,
          "system",
          "df",
          "--format",
          "{{.Type}}|{{.TotalCount}}|{{.Active}}|{{.Size}}",
        )
      )
        .split("\n")
        .map((line) => line.split("|"));
      await expect
        .poll(
          () =>
            section
              .locator("tbody tr")
              .evaluateAll((rows) =>
                rows.map((row: any) =>
                  [...row.querySelectorAll("td")]
                    .slice(0, 4)
                    .map((td: any) => td.textContent.trim()),
                ),
              ),
          { timeout: 20_000 },
        )
        .toEqual(df);
    }
    await expect
      .poll(() => page.locator('section[data-cluster="dead"]').textContent())
      .toMatch(/down: ENGINE_UNREACHABLE/);
    const bravo = page.locator('section[data-cluster="bravo"]');
    await bravo.getByRole("button", { name: /Show the detail/ }).click();
    const detail = bravo.getByTestId("df-detail");
    expect(
      await detail.getByRole("table", { name: "bravo: local volumes" }).textContent(),
    ).toContain("b-vol");
    expect(await detail.getByRole("table", { name: "bravo: images" }).textContent()).toContain(
      "local/busybox",
    );
    // Sizes sort by their bytes, not their text (`980kB` below `1.9MB`).
    const images = detail.getByRole("table", { name: "bravo: images" });
    await images.getByRole("button", { name: "Size", exact: true }).click();
    const sizes = (await images.locator("tbody td:nth-child(5)").allTextContents()).map(bytesOf);
    expect(sizes.length).toBeGreaterThan(1);
    expect(sortedBy(sizes, false)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("the overview above the clusters", () => {
  it("counts engines and containers, and each figure links to its filtered view", async () => {
    // The clusters view reads each cluster on its own: the down ones' 502 and 504 are the
    // browser's own console lines.
    const page = await open("#/", undefined, /status of 50[24]/);
    const overview = page.getByTestId("overview");
    const figure = (label: string) => overview.locator(`[data-figure="${label}"] strong`);
    const body = (await raw(dash.port, "/list/cluster")).json;
    const up = body.clusters.filter((cluster: any) => !cluster.error);
    const runningCount = up.reduce(
      (sum: number, c: any) => sum + (c.docker.ContainersRunning ?? 0),
      0,
    );
    await expect.poll(() => figure("engines up").textContent()).toBe(String(up.length));
    // Down is each failed engine's own watch line, after its time limit: polled too.
    await expect.poll(() => figure("engines down").textContent(), { timeout: 15_000 }).toBe("2");
    expect(await figure("running").textContent()).toBe(String(runningCount));
    await expect.poll(() => figure("unhealthy").textContent()).toBe("1");
    await expect.poll(() => figure("images drifting").textContent()).toMatch(/^[1-9]/);
    expect(await axeViolations(page)).toEqual([]);
    await overview.getByRole("link", { name: /unhealthy/ }).click();
    await expect.poll(() => page.url()).toMatch(/#\/containers\?health=unhealthy$/);
    await expect
      .poll(() => page.locator("tbody tr[data-key] td:nth-child(2)").allTextContents())
      .toEqual(["sick"]);
    await page.goto(`${dash.url}/#/`);
    await overview.getByRole("link", { name: /images drifting/ }).click();
    await expect.poll(() => page.url()).toMatch(/#\/drift$/);
  });
});

describe("at a phone's width and a desktop's, light and dark", () => {
  it("shows the three views without sideways scrolling of the page, axe-core clean", async () => {
    for (const colorScheme of ["light", "dark"] as const)
      for (const [width, height, size] of [
        [390, 844, "phone"],
        [1280, 800, "wide"],
      ] as const)
        for (const [hash, ready, name] of [
          ["#/stats", "table.data tbody tr", "stats"],
          ["#/disk-usage", 'section[data-cluster="bravo"] table', "disk-usage"],
          ["#/", '[data-figure="unhealthy"] a, a[data-figure="unhealthy"]', "overview"],
        ] as const) {
          // openPage takes the colour scheme beside the size.
          const viewport = { width, height, colorScheme };
          const page = await open(hash, viewport);
          await page.locator(ready).first().waitFor({ timeout: 20_000 });
          // The overview as the docs show it: every cluster answered or given up on, and the
          // drift counted (its figure is "…" until then).
          if (name === "overview")
            await expect
              .poll(async () => {
                const drift = page.locator('[data-figure="images drifting"] strong');
                return (await clustersSettled(page)) && (await drift.textContent()) !== "…";
              })
              .toBe(true);
          const overflow = await page.evaluate(() => {
            const root = (globalThis as any).document.documentElement;
            return root.scrollWidth - root.clientWidth;
          });
          expect(overflow, `${name} ${size} ${colorScheme}`).toBeLessThanOrEqual(0);
          expect(await axeViolations(page), `${name} ${size} ${colorScheme}`).toEqual([]);
          if (KEEP)
            await page.screenshot({
              path: join(KEEP, `dashboard-${name}-${size}-${colorScheme}.png`),
              fullPage: name !== "stats",
            });
          await page.close();
        }
  }, 180_000);
});
