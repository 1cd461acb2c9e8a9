import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docker, engines, writeConfigWithHang } from "../helpers.ts";
import { startServer } from "../server-helpers.ts";
import { axeViolations, dashboardForFile, unique, liveFleet, openPage } from "./browser.ts";

/**
 * The Logs view in Debian's Chromium against the suite's real engines: the merged, live logs of
 * a selection (two containers of this file's own, one on alpha and one on bravo, each writing to
 * stdout and stderr), grep sent to the server, the deep link, pause, download, the selection's
 * bound explained (this file's server reads at most 4 containers at once), and the "logs" links
 * of the containers view; at a phone's width and a desktop's, light and dark, axe-core clean.
 */
const BOUND = 4;
let configDir = "";
const dash = dashboardForFile(async () => {
  configDir = await mkdtemp(join(tmpdir(), "docklens-logs-"));
  const config = JSON.parse(await readFile(engines.configPath, "utf8")) as object;
  const configPath = join(configDir, "config.json");
  await writeFile(configPath, JSON.stringify({ ...config, maxSelection: BOUND }));
  return { fleet: await liveFleet(configPath) };
});
const open = dash.open;
/** `DOCKLENS_SCREENSHOTS=docs` writes the docs' screenshots of the view there too (docs/*.png). */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

const id = unique();
const ticker = (tag: string) =>
  `i=0; while true; do echo "tick-${tag} $i"; echo "warn-${tag} $i" >&2; i=$((i+1)); sleep 0.3; done`;
beforeAll(async () => {
  await docker(
    engines.hostA,
    "run",
    "-d",
    "--name",
    `${id}-a`,
    "local/busybox:1",
    "sh",
    "-c",
    ticker("a"),
  );
  await docker(
    engines.hostB,
    "run",
    "-d",
    "--name",
    `${id}-b`,
    "local/busybox:1",
    "sh",
    "-c",
    ticker("b"),
  );
}, 30_000);
afterAll(async () => {
  await Promise.all([
    docker(engines.hostA, "rm", "-f", `${id}-a`),
    docker(engines.hostB, "rm", "-f", `${id}-b`),
  ]);
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

const rows = (page: Page) => page.getByTestId("log-lines").locator(".log-row");
const sources = async (page: Page) =>
  [
    ...new Set(await rows(page).evaluateAll((all) => all.map((row: any) => row.dataset.source))),
  ].sort();
const texts = (page: Page) => rows(page).locator(".text").allTextContents();

describe("the Logs view", () => {
  it("merges the lines of two clusters' containers, each prefixed in its colour, stderr apart", async () => {
    const page = await open(`#/logs?q=${id}`);
    await expect
      .poll(() => sources(page), { timeout: 15_000 })
      .toEqual([`alpha/${id}-a`, `bravo/${id}-b`]);
    // The list follows its end, so a row found in one call may be gone in the next (a detached
    // node has no colour): every prefix's colour in one read, polled until both differ.
    const colours = () =>
      page
        .locator(".log-row .source")
        .evaluateAll((nodes) =>
          Object.fromEntries(
            nodes.map((node: any) => [
              node.closest(".log-row").dataset.source,
              (globalThis as any).getComputedStyle(node).color,
            ]),
          ),
        );
    await expect
      .poll(
        async () => {
          const seen = await colours();
          const [a, b] = [seen[`alpha/${id}-a`], seen[`bravo/${id}-b`]];
          return Boolean(a && b && a !== b);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect.poll(() => rows(page).and(page.locator(".stderr")).count()).toBeGreaterThan(0);
    expect(await page.locator(".log-row.stderr .text").first().textContent()).toMatch(
      /^warn-[ab] \d+$/,
    );
    // Timestamps: each line's time, the engine's RFC 3339 in its title.
    expect(await rows(page).locator(".time").first().getAttribute("title")).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/,
    );
    expect(await page.getByTestId("failures").locator("summary").textContent()).toBe(
      "Not read: dead, hang",
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it("sends grep to the server, opens the stream again, and the deep link restores it", async () => {
    const page = await open(`#/logs?q=${id}`);
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/logs") asked.push(request.url());
    });
    await expect.poll(() => sources(page), { timeout: 15_000 }).toHaveLength(2);
    await page.getByTestId("grep").fill("tick-b");
    await expect.poll(() => asked.some((url) => url.includes("grep=tick-b"))).toBe(true);
    await expect.poll(() => sources(page), { timeout: 15_000 }).toEqual([`bravo/${id}-b`]);
    expect((await texts(page)).every((text) => text.startsWith("tick-b "))).toBe(true);
    await expect.poll(() => page.url()).toContain("grep=tick-b");
    // The same link in another page: the same selection and pattern.
    const shared = await open(`#/logs?${page.url().split("?")[1]}`);
    expect(await shared.getByTestId("grep").inputValue()).toBe("tick-b");
    expect(await shared.getByTestId("selection-name").inputValue()).toBe(id);
    await expect.poll(() => sources(shared), { timeout: 15_000 }).toEqual([`bravo/${id}-b`]);
  });

  it("says why the server refused a pattern, and follows again once it is mended", async () => {
    const page = await open(`#/logs?q=${id}`, undefined, /status of 400 \(Bad Request\)/);
    await expect.poll(() => sources(page), { timeout: 15_000 }).toHaveLength(2);
    await page.getByTestId("grep").fill("tick-(");
    await expect
      .poll(() => page.locator(".notice.error").textContent(), { timeout: 10_000 })
      .toMatch(/^\s*INVALID_QUERY: .*grep/);
    expect(await page.getByTestId("bound").count()).toBe(0);
    await page.getByTestId("grep").fill("tick-a");
    await expect.poll(() => sources(page), { timeout: 15_000 }).toEqual([`alpha/${id}-a`]);
    expect(await page.locator(".notice.error").count()).toBe(0);
  });

  it("is live as soon as the server answers, before any line (a quiet selection)", async () => {
    // shop-web writes nothing, and alpha answers: no line and no status line comes.
    const page = await open("#/logs?cluster=alpha&project=shop");
    await expect.poll(() => page.locator("[data-live]").textContent()).toBe("live");
    expect(await page.locator("[data-live]").getAttribute("data-live")).toBe("true");
    expect(await page.getByTestId("log-lines").textContent()).toContain("No lines yet.");
  });

  it("pauses (lines wait, bounded) and resumes, and downloads what it shows", async () => {
    const page = await open(`#/logs?q=${id}&stream=stdout`);
    await expect.poll(() => sources(page), { timeout: 15_000 }).toHaveLength(2);
    await page.getByRole("button", { name: "Pause" }).click();
    // The lines the view holds (its status), not the rows drawn: the virtual list draws a frame's
    // new rows before it scrolls to them, so those move for a frame after each line.
    const count = page.getByTestId("log-count");
    const held = async () => Number((await count.textContent())?.match(/(\d+) lines/)?.[1]);
    await expect.poll(() => count.textContent()).toMatch(/waiting/);
    const shown = await held();
    expect(shown).toBeGreaterThan(0);
    await expect
      .poll(() => count.textContent(), { timeout: 10_000 })
      .toMatch(/[1-9]\d* new waiting/);
    expect(await held()).toBe(shown);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => count.textContent()).not.toMatch(/waiting/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download" }).click(),
    ]);
    const saved = await readFile(await download.path(), "utf8");
    expect(saved).toMatch(new RegExp(`^\\S+Z alpha/${id}-a stdout tick-a \\d+$`, "m"));
    expect(saved).toMatch(new RegExp(`^\\S+Z bravo/${id}-b stdout tick-b \\d+$`, "m"));
    expect(saved).not.toMatch(/stderr/);
  });

  it("opens on the newest running containers up to the bound, and says what it shows", async () => {
    const asked: string[] = [];
    const page = await open("#/logs");
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/logs") asked.push(request.url());
    });
    await page.reload();
    const running = (
      await Promise.all(
        [engines.hostA, engines.hostB].map((host) =>
          docker(host, "ps", "-q", "--filter", "status=running"),
        ),
      )
    )
      .join("\n")
      .split("\n")
      .filter(Boolean).length;
    expect(running).toBeGreaterThan(BOUND);
    await expect
      .poll(() => page.getByTestId("selection-shown").allTextContents(), { timeout: 15_000 })
      .toEqual([
        `The ${BOUND} newest running containers of ${running}; narrow the selection to see others.`,
      ]);
    // This file's two tickers are the newest running containers of either engine.
    await expect
      .poll(async () => (await sources(page)).filter((source) => source.includes(id)), {
        timeout: 15_000,
      })
      .toEqual([`alpha/${id}-a`, `bravo/${id}-b`]);
    expect(await page.locator(".notice.error").count()).toBe(0);
    expect(await page.getByTestId("bound").count()).toBe(0);
    const query = new URL(asked[0]!).searchParams;
    expect([query.getAll("filter"), query.get("newest")]).toEqual([["status=running"], "true"]);
    expect(await page.locator("summary").first().textContent()).toMatch(
      /running containers, newest first/,
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it("fills the cluster pickers of Logs and Stats at once, the hung engine marked waiting", async () => {
    // The hung engine given 20 s (the field's default is 5 s): /list/cluster waits that long for
    // it, and the hung cluster is "waiting" all that time, so a picker that says so filled early.
    const fleet = await liveFleet(await writeConfigWithHang("dashboard-pickers.json", 20_000));
    const server = await startServer({ log: false, fleet });
    try {
      for (const view of ["logs", "stats"]) {
        const watched = await openPage(dash.browser);
        try {
          await watched.page.goto(`${server.url}/#/${view}?q=${id}`);
          const picker = watched.page.getByTestId("selection-cluster");
          const options = () =>
            picker
              .locator("option")
              .evaluateAll((all) =>
                all.map((one: any) => `${one.value}:${one.dataset.state ?? ""}`).sort(),
              );
          await expect
            .poll(options, { timeout: 10_000 })
            .toEqual([
              ":",
              "alpha:live",
              "bravo:live",
              expect.stringMatching(/^dead:(waiting|down)$/),
              "hang:waiting",
            ]);
          expect((await picker.locator('option[value="hang"]').textContent())?.trim()).toBe(
            "hang (waiting)",
          );
        } finally {
          await watched.close();
        }
        expect(watched.problems).toEqual([]);
      }
    } finally {
      await server.close();
    }
  });

  it("explains the server's bound when a selection made holds too many containers", async () => {
    // The browser says so of any response that is not ok.
    const page = await open("#/logs?status=running", undefined, /status of 400 \(Bad Request\)/);
    await expect
      .poll(() => page.locator(".notice.error").textContent(), { timeout: 15_000 })
      .toMatch(
        new RegExp(`INVALID_QUERY: the selection matches \\d+ containers, more than ${BOUND}`),
      );
    await expect.poll(() => page.getByTestId("bound").textContent()).toMatch(/maxSelection/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("is reached from a filtered containers table and from a project group", async () => {
    const page = await open(`#/containers?q=${id}`);
    await page.getByRole("link", { name: "logs of these" }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/logs\\?q=${id}$`));
    await expect.poll(() => sources(page), { timeout: 15_000 }).toHaveLength(2);
    // The fixtures' project "shop" (a service on alpha, one on bravo) writes no line.
    const grouped = await open("#/containers?q=shop&group=1");
    // The heading reads as words: a space between the count and its link.
    await expect
      .poll(async () =>
        (await grouped.locator("tr.group", { hasText: "shop" }).textContent())
          ?.replace(/\s+/g, " ")
          .trim(),
      )
      .toMatch(/^shop \(\d+\) logs$/);
    const asked = grouped.waitForRequest((request) => new URL(request.url()).pathname === "/logs");
    await grouped
      .locator("tr.group", { hasText: "shop" })
      .getByRole("link", { name: "logs" })
      .click();
    await expect.poll(() => grouped.url()).toMatch(/#\/logs\?project=shop$/);
    expect(new URL((await asked).url()).searchParams.get("project")).toBe("shop");
    await expect.poll(() => grouped.getByRole("status").allTextContents()).toContain("live");
    expect(await grouped.locator(".notice.error").count()).toBe(0);
  });

  it("works at a phone's width and a desktop's, in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const)
      for (const [width, height, size] of [
        [390, 844, "phone"],
        [1280, 720, "wide"],
      ] as const) {
        // openPage takes the colour scheme beside the size.
        const viewport = { width, height, colorScheme };
        const page = await open(`#/logs?q=${id}`, viewport);
        await expect.poll(() => sources(page), { timeout: 15_000 }).toHaveLength(2);
        const overflow = await page.evaluate(() => {
          const root = (globalThis as any).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect(overflow).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);
        if (KEEP)
          await page.screenshot({ path: join(KEEP, `dashboard-logs-${size}-${colorScheme}.png`) });
      }
  });
});
