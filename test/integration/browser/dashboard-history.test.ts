import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../../support/until.ts";
import { docker, engines, spawnServe, writeConfig } from "../helpers.ts";
import { raw } from "../server-helpers.ts";
import { axeViolations, dashboardAt, openPage, unique } from "./browser.ts";

/**
 * History on the page (issue 46), in Debian's Chromium against `docklens serve` itself recording
 * alpha: a container that logs continuously is killed, removed and replaced under its name; the
 * page of the removed one shows its record, its last lines (grep works, a hostile line is text),
 * its CPU and memory chart and its events; the Containers view lists it with "Removed too"; the
 * live replacement's page charts its last hours; its alert links to what was recorded then; a
 * serve that keeps no history says so in one line.
 */
const LABEL = "docklens-test=dash-history";
/** `DOCKLENS_SCREENSHOTS=docs` writes the docs' screenshot of a removed container's page there. */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;
const NAME = unique();
const IMAGE = "local/busybox:1";
const HOSTILE = "<img src=x onerror=window.__pwned=1>";
/** A hostile line, a red one, then a numbered line every 50 ms. */
const LOGGER = `echo '${HOSTILE}'; printf '\\033[31mred\\033[0m\\n'; i=0; while true; do i=$((i+1)); echo "line $i"; sleep 0.05; done`;

/** `docklens serve --json` over `config`; its URL, port, and a close that ends it. */
async function serve(config: string) {
  const { child, line, stderr } = await spawnServe(["--json", "--config", config]);
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
  const dir = join(engines.tmp, `dash-history-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const config = await writeConfig(`dash-history-${process.pid}.json`, {
    clusters: [{ name: "alpha", host: engines.hostA }],
    history: {
      path: join(dir, "history.sqlite"),
      statsInterval: "1s",
      logs: { filter: [`label=${LABEL}`] },
    },
    alerts: { rules: [{ name: "crashed", when: "exited", filter: [`label=${LABEL}`] }] },
  });
  return serve(config);
});

afterAll(async () => {
  await docker(engines.hostA, "rm", "-f", NAME).catch(() => "");
});

/** A body of serve's, read as the page reads it. */
const read = async <T>(path: string) => (await raw(dash.port, path)).json as T;
const waitFor = async (ok: () => Promise<boolean>) => expect(await until(ok, 30_000)).toBe(true);

describe("history on the page", () => {
  let first = "";
  let last = "";

  it("shows a removed container's record, last lines with grep, chart and events", async () => {
    first = await docker(
      engines.hostA,
      "run",
      "-d",
      "--name",
      NAME,
      "-l",
      LABEL,
      "-e",
      "DB_PASSWORD=hunter2",
      IMAGE,
      "sh",
      "-c",
      LOGGER,
    );
    const lines = () =>
      read<{ lines: Array<{ text: string }> }>(`/history/logs?container=${first}`);
    await waitFor(async () => (await lines()).lines.length > 30);
    // A few stats samples (one a second), for a chart of more than one point.
    await waitFor(async () => {
      const { series } = await read<{ series: Array<{ points: unknown[] }> }>(
        `/history/stats?container=${first}&step=1s`,
      );
      return (series[0]?.points.length ?? 0) >= 4;
    });
    await docker(engines.hostA, "kill", NAME);
    last = (await docker(engines.hostA, "logs", "--tail", "1", NAME)).trim();
    await docker(engines.hostA, "rm", NAME);
    // Replaced under its name.
    await docker(engines.hostA, "run", "-d", "--name", NAME, "-l", LABEL, IMAGE, "sleep", "600");
    await waitFor(async () => (await lines()).lines.at(-1)?.text === last);
    await waitFor(async () => {
      const body = await read<{ containers: Array<{ id: string }> }>(
        `/history/containers?name=${NAME}&removed=true`,
      );
      return body.containers.some((one) => one.id === first);
    });

    const page = await dash.open(
      `#/cluster/alpha/container/${first}?name=${NAME}`,
      undefined,
      /status of 404/,
    );
    const gone = page.getByTestId("gone-container");
    await expect.poll(() => gone.textContent(), { timeout: 20_000 }).toContain("exit code 137");
    expect(await gone.textContent()).toContain(first);
    expect(await page.getByTestId("gone-image").textContent()).toBe(IMAGE);
    // The replacement is named as another container.
    await expect.poll(() => page.getByTestId("replacement").textContent()).toContain(NAME);
    // Its record: labels, command.
    expect(await page.locator("table.kv", { hasText: "Labels" }).textContent()).toContain(
      "dash-history",
    );
    expect(await page.locator("table.kv", { hasText: "Command" }).textContent()).toContain("sh -c");
    // Its environment, its secret redacted before it was stored.
    const env = await page.locator("table.kv", { hasText: "Environment" }).textContent();
    expect(env).toMatch(/DB_PASSWORD\s*<redacted>/);
    expect(await page.locator("main").textContent()).not.toContain("hunter2");
    // Its last lines, the last it wrote at the end.
    const recorded = page.getByTestId("history-lines");
    await expect.poll(() => recorded.textContent(), { timeout: 20_000 }).toContain(last);
    // Grep, sent to the server: one line.
    await page.getByTestId("history-grep").fill("^line 7$");
    await expect
      .poll(() => page.getByTestId("history-count").textContent())
      .toContain("1 lines matching ^line 7$");
    expect((await recorded.locator(".text").allTextContents()).map((text) => text.trim())).toEqual([
      "line 7",
    ]);
    // A hostile line is text.
    await page.getByTestId("history-grep").fill("onerror");
    await expect.poll(() => recorded.textContent()).toContain(HOSTILE);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    // ANSI red is a class on a text span.
    await page.getByTestId("history-grep").fill("red");
    await expect.poll(() => recorded.locator(".fg-1").allTextContents()).toEqual(["red"]);
    // Its CPU and memory, charted; its events, its death with its exit code.
    await expect
      .poll(() => page.getByTestId("history-stats").locator("canvas").count())
      .toBeGreaterThan(0);
    const events = page.getByTestId("history-events");
    await expect.poll(() => events.textContent()).toContain("die (exit 137)");
    expect(await events.textContent()).toContain("destroy");
    expect(await axeViolations(page)).toEqual([]);
    if (KEEP) {
      await page.getByTestId("history-grep").fill("");
      await expect.poll(() => recorded.textContent()).toContain(last);
      await page.screenshot({ path: join(KEEP, "dashboard-history.png"), fullPage: true });
    }
  });

  it("shows that page at a phone's width, dark, without sideways scrolling, axe-core clean", async () => {
    // openPage takes the colour scheme beside the size.
    const viewport = { width: 390, height: 844, colorScheme: "dark" };
    const page = await dash.open(
      `#/cluster/alpha/container/${first}?name=${NAME}`,
      viewport,
      /status of 404/,
    );
    await expect
      .poll(() => page.getByTestId("history-lines").textContent(), { timeout: 20_000 })
      .toContain(last);
    await expect.poll(() => page.getByTestId("history-stats").locator("canvas").count()).toBe(1);
    const overflow = await page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("lists it in the Containers view with Removed too, linked to its page", async () => {
    const page = await dash.open(`#/containers?q=${NAME}`);
    const rows = page.locator("tbody tr[data-key]");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    await page.getByTestId("with-removed").check();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    const removed = page.locator("tbody tr[data-removed]");
    expect(await removed.locator(".badge").textContent()).toBe("removed");
    expect(await removed.locator(".c-status").textContent()).toMatch(/^\s*Exited \(137\), removed/);
    expect(await removed.getByRole("link", { name: NAME }).getAttribute("href")).toBe(
      `#/cluster/alpha/container/${first}?name=${NAME}`,
    );
    expect(page.url()).toContain("removed=1");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("charts a live container's last hours from history", async () => {
    const page = await dash.open(`#/cluster/alpha/container/${NAME}`);
    const chart = page.getByTestId("history-stats");
    await expect
      .poll(() => chart.locator("h2").textContent(), { timeout: 20_000 })
      .toMatch(/the last 6 hours|since it was created/);
    // Its samples come a second apart: reload until one is there.
    await expect
      .poll(
        async () => {
          if ((await chart.locator("canvas").count()) > 0) return true;
          await page.reload();
          await chart.locator("h2").waitFor();
          return false;
        },
        { timeout: 30_000, interval: 2000 },
      )
      .toBe(true);
    expect(await chart.textContent()).toMatch(/\d+ points; at most [\d.]+% CPU/);
  });

  it("links an alert to the lines and stats recorded around it", async () => {
    const page = await dash.open("#/alerts", undefined, /status of 404/);
    const row = page.locator("[data-alerts] tr", { hasText: NAME });
    const link = row.getByTestId("alert-recorded");
    await link.first().waitFor({ timeout: 20_000 });
    expect(await link.first().getAttribute("href")).toMatch(
      new RegExp(`^#/cluster/alpha/container/${first}\\?name=${NAME}&since=\\d{4}-\\d\\d-\\d\\dT`),
    );
    await link.first().click();
    const recorded = page.getByTestId("history-lines");
    await expect.poll(() => recorded.textContent(), { timeout: 20_000 }).toContain(last);
    expect(await page.locator("#history-logs-title").textContent()).toContain("around the alert");
    await expect
      .poll(() => page.getByTestId("history-stats").locator("canvas").count())
      .toBeGreaterThan(0);
  });

  it("says in one line that a serve without history keeps none", async () => {
    const config = await writeConfig(`dash-history-off-${process.pid}.json`, {
      clusters: [{ name: "alpha", host: engines.hostA }],
      history: false,
    });
    const plain = await serve(config);
    const watched = await openPage(dash.browser);
    try {
      await watched.page.goto(`${plain.url}/#/cluster/alpha/container/${first}?name=${NAME}`);
      await expect
        .poll(() => watched.page.getByTestId("history-none").textContent(), { timeout: 20_000 })
        .toContain("keeps no history");
      expect(await watched.page.getByTestId("gone-container").textContent()).toContain(first);
      expect(await axeViolations(watched.page)).toEqual([]);
      expect(watched.problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    } finally {
      await watched.close();
      await plain.close();
    }
  });
});
