import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { docker, engines } from "../helpers.ts";
import { raw, startServer, type TestServer } from "../server-helpers.ts";
import { axeViolations, browserForFile, openPage, type WatchedPage } from "./browser.ts";

/**
 * The dashboard in Debian's Chromium against the suite's real engines (alpha on a socket, bravo
 * on TCP, a dead and a hung endpoint): each view against the JSON interface and the docker CLI,
 * live logs and containers, hostile strings shown as text, accessibility, no console error and
 * no CSP violation on any page.
 */
const chrome = browserForFile();
let server: TestServer;
let shots: string;
beforeAll(async () => {
  server = await startServer({ log: false });
  shots = await mkdtemp(join(tmpdir(), "docklens-dash-"));
});
afterAll(async () => {
  await server?.close();
  if (shots) await rm(shots, { recursive: true, force: true });
});

let current: WatchedPage | undefined;
/** A fresh page on `hash` (`#/containers`), watched; closed and checked for problems after the test. */
async function open(hash: string, size?: { width: number; height: number }): Promise<Page> {
  current = await openPage(chrome.browser, size);
  await current.page.goto(`${server.url}/${hash}`);
  return current.page;
}
afterEach(async () => {
  const watched = current;
  current = undefined;
  if (!watched) return;
  await watched.close();
  expect(watched.problems).toEqual([]);
});

const unique = () => `dash-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const count = async (host: string) =>
  (await docker(host, "ps", "-a", "-q")).split("\n").filter(Boolean).length;
/** The containers table's own count of the rows it has, shown and total. */
const tableCount = async (page: Page) => {
  const status = page.locator("p.count");
  return {
    shown: Number(await status.getAttribute("data-shown")),
    total: Number(await status.getAttribute("data-total")),
  };
};

describe("the page's CSP", () => {
  it("refuses inline script, and the tests' watcher sees the violation", async () => {
    const watched = await openPage(chrome.browser);
    try {
      await watched.page.goto(`${server.url}/#/drift`);
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
    const body = (await raw(server.port, "/list/cluster")).json;
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
        expect.stringMatching(/^\s*no project/),
        expect.stringMatching(/^\s*shop\s*\(1\)/),
      ]);
  });

  it("shows a container started meanwhile, and its removal, without a reload", async () => {
    const page = await open("#/containers");
    await page.locator("p.count").waitFor();
    const name = unique();
    const row = page.locator("tbody tr[data-key] td:nth-child(2)", { hasText: name });
    try {
      await page.getByLabel("Search").fill(name);
      await docker(engines.hostA, "run", "-d", "--name", name, "local/busybox:1", "sleep", "600");
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    } finally {
      await docker(engines.hostA, "rm", "-f", name);
    }
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
  });
});

describe("a container's page", () => {
  it("shows its facts with the environment redacted, and follows a line it writes into its logs", async () => {
    const page = await open("#/cluster/alpha/container/web");
    const logs = page.getByTestId("logs");
    await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toMatch(/out \d+/);
    const mark = unique();
    await docker(engines.hostA, "exec", "web", "sh", "-c", `echo ${mark} > /proc/1/fd/1`);
    await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain(mark);
    // stderr lines are apart, and the filter highlights matches.
    expect(await logs.locator(".line.stderr").count()).toBeGreaterThan(0);
    await page.getByTestId("log-filter").fill(mark);
    await expect.poll(() => logs.locator("mark").allTextContents()).toEqual([mark]);
    const text = await page.locator("main").textContent();
    expect(text).toContain("DB_PASSWORD");
    expect(text).toContain("<redacted>");
    expect(text).not.toContain("hunter2");
    expect(text).toContain("app=web".split("=")[1]);
    // Stats come live; the processes of the ticker are listed.
    await expect
      .poll(() => page.getByRole("region", { name: "Stats" }).textContent(), { timeout: 10_000 })
      .toMatch(/CPU\s*\d+\.\d %/);
    await expect
      .poll(() => page.getByRole("region", { name: "Processes" }).textContent())
      .toContain("sleep");
    expect(await axeViolations(page)).toEqual([]);
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
    try {
      await docker(
        engines.hostA,
        "run",
        "-d",
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
      );
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
      await page.goto(`${server.url}/#/containers?label=note`);
      await expect.poll(() => page.locator("tbody tr[data-key]").count()).toBe(1);
      expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    } finally {
      await docker(engines.hostA, "rm", "-f", name);
    }
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

  it("the events view shows the merged stream live", async () => {
    const page = await open("#/events");
    await page.locator("main tbody").waitFor();
    const name = unique();
    await docker(engines.hostA, "create", "--name", name, "local/busybox:1", "true");
    await docker(engines.hostA, "rm", name);
    await expect
      .poll(() => page.locator("main tbody").textContent(), { timeout: 10_000 })
      .toContain(name);
    expect(await axeViolations(page)).toEqual([]);
  });
});

/**
 * Where the screenshots of the README go, when asked: `DOCKLENS_SCREENSHOTS=docs npx vitest run
 * test/integration/browser -t width` (or any folder) writes dashboard.png, dashboard-phone.png,
 * dashboard-clusters-dark.png and dashboard-container-light.png there too.
 */
const KEEP = process.env.DOCKLENS_SCREENSHOTS;

describe("at a phone's width", () => {
  it("is usable at 390 pixels, with no horizontal overflow of the page itself", async () => {
    const page = await open("#/containers", { width: 390, height: 844 });
    await page.locator("p.count").waitFor();
    const overflow = await page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, "containers-phone.png") });
    if (KEEP) await page.screenshot({ path: join(KEEP, "dashboard-phone.png") });
    expect(await axeViolations(page)).toEqual([]);
  });

  it("and at a desktop's, in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const watched = await openPage(chrome.browser, { width: 1280, height: 720, colorScheme });
      try {
        await watched.page.goto(`${server.url}/#/containers?sort=cluster`);
        await watched.page.locator("p.count").waitFor();
        await watched.page.screenshot({ path: join(shots, `containers-${colorScheme}.png`) });
        if (KEEP && colorScheme === "light")
          await watched.page.screenshot({ path: join(KEEP, "dashboard.png") });
        // The README's other screenshots: the clusters in dark, a container in light.
        const more =
          colorScheme === "dark"
            ? ["#/", "clusters"]
            : ["#/cluster/alpha/container/web", "container"];
        await watched.page.goto(`${server.url}/${more[0]}`);
        await watched.page.getByRole("heading", { level: 1 }).waitFor();
        await watched.page.waitForTimeout(2500);
        const file = `dashboard-${more[1]}-${colorScheme}.png`;
        await watched.page.screenshot({ path: join(shots, file), fullPage: true });
        if (KEEP) await watched.page.screenshot({ path: join(KEEP, file), fullPage: true });
        expect(await axeViolations(watched.page)).toEqual([]);
      } finally {
        await watched.close();
      }
      expect(watched.problems).toEqual([]);
    }
  });
});
