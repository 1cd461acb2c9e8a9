// Debian's Chromium driven by playwright-core, for the dashboard's tests: one browser per test
// file, a fresh context per test, and every console error, page error and CSP violation of a
// page collected so that a test can say there were none.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";
import { loadFleet, type Fleet } from "../../../src/core/engine/fleet.ts";
import type { CreateAppOptions } from "../../../src/server/app.ts";
import { engines } from "../helpers.ts";
import { startServer, type TestServer } from "../server-helpers.ts";
// Headless, as root, and nothing sent off the machine (background networking, updates, sync),
// whose refused connections this machine's closed network would otherwise answer by the score;
// and without site isolation: a test's page, on loopback, then lives in one renderer rather than
// moving from about:blank's to a second (the browser files took 16% less CPU, 448 s against 532
// s). bench/ui.mjs launches it with the same.
import ARGS from "./chromium-args.json" with { type: "json" };

// A page's test gets 60 s, not the suite's 30: beside other files on a loaded machine's two
// cores, a browser slows most (a token test that takes 5 s passed 30 s once so).
vi.setConfig({ testTimeout: 60_000 });

/** Debian's package (scripts/test-deps.sh installs it); never a downloaded browser. */
export const CHROMIUM = process.env.DOCKLENS_CHROMIUM ?? "/usr/bin/chromium";

/** Launch Chromium; fails (never skips) when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (scripts/test-deps.sh)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** The browser of a test file: launched before its tests, closed after them. */
export function browserForFile(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 30_000);
  afterAll(() => browser?.close());
  return {
    get browser() {
      return browser!;
    },
  };
}

/** A page with what went wrong on it: console errors, uncaught errors, CSP violations. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
  close(): Promise<void>;
}

/** A fresh context (own storage) and page, `width` × `height`, watched for problems. */
export async function openPage(
  browser: Browser,
  {
    width = 1280,
    height = 800,
    colorScheme = "light",
  }: { width?: number; height?: number; colorScheme?: "light" | "dark" } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    // Chromium's word for the machine's interfaces changing under it (another test's engine made
    // one): a request it dropped, which the page asks again; not the page's problem.
    if (message.type() !== "error" || /net::ERR_NETWORK_CHANGED/.test(message.text())) return;
    // A failed request's line does not name it: its location does.
    const { url } = message.location();
    problems.push(`console: ${message.text()}${url ? ` (${url})` : ""}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  // Injected by the browser itself, outside the page's CSP, before any of the page's scripts.
  // (globalThis: these functions run in the page, where the DOM is; the tests' types have none.)
  await page.addInitScript(() => {
    (globalThis as any).document.addEventListener("securitypolicyviolation", (event: any) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, context, problems, close: () => context.close() };
}

/** What a test file of the dashboard gets from {@link dashboardForFile}. */
export interface Dashboard {
  readonly browser: Browser;
  /** The app's base URL and port. */
  readonly url: string;
  readonly port: number;
  /** A temp dir for screenshots, removed after the file. */
  readonly shots: string;
  /**
   * A fresh page on `hash` (`#/containers`) of the app, watched: after the test it is closed,
   * and the test fails on any console error, page error or CSP violation it saw (but those
   * `allowed` matches).
   */
  open: (hash: string, size?: { width: number; height: number }, allowed?: RegExp) => Promise<Page>;
}

/**
 * A fleet as `docklens serve` keeps one (live: the page's lists are watched from its mirrors), of
 * the tests' config unless told; a short grace period, so nothing is left watched after a file.
 */
export function liveFleet(configPath = engines.configPath): Promise<Fleet> {
  return loadFleet({ configPath, live: true, graceMs: 1000 });
}

/**
 * The browser, the app on a loopback port (over the test config, or `options`, which may be
 * made once the engines are known) and a temp dir, for the tests of one file.
 */
export function dashboardForFile(
  options: () => Promise<Partial<CreateAppOptions>> = async () => ({}),
): Dashboard {
  return dashboardAt(async () => {
    const given = await options();
    return startServer({ log: false, ...given, fleet: given.fleet ?? (await liveFleet()) });
  });
}

/** A served page, wherever it is served from: the app in-process, or `docklens serve` itself. */
export type Served = Pick<TestServer, "url" | "port" | "close">;

/** As {@link dashboardForFile}, for the page that `start` serves (and closes after the file). */
export function dashboardAt(start: () => Promise<Served>): Dashboard {
  const chrome = browserForFile();
  let server: Served | undefined;
  let shots = "";
  // Every page a test opened, each closed and checked after it.
  let opened: Array<{ watched: WatchedPage; allowed: RegExp | undefined }> = [];
  beforeAll(async () => {
    server = await start();
    shots = await mkdtemp(join(tmpdir(), "docklens-dash-"));
  });
  afterAll(async () => {
    await server?.close();
    if (shots) await rm(shots, { recursive: true, force: true });
  });
  afterEach(async () => {
    const pages = opened;
    opened = [];
    await Promise.all(pages.map(({ watched }) => watched.close()));
    const problems = pages.flatMap(({ watched, allowed }) =>
      watched.problems.filter((problem) => !allowed?.test(problem)),
    );
    expect(problems).toEqual([]);
  });
  return {
    get browser() {
      return chrome.browser;
    },
    get url() {
      return server!.url;
    },
    get port() {
      return server!.port;
    },
    get shots() {
      return shots;
    },
    open: async (hash, size, allowed) => {
      const watched = await openPage(chrome.browser, size);
      opened.push({ watched, allowed });
      await watched.page.goto(`${server!.url}/${hash}`);
      return watched.page;
    },
  };
}

/** A name no other run or test uses, for the containers a test makes. */
export const unique = (): string => `dash-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * True once the clusters view (`#/`) shows the suite's four clusters (alpha, bravo, dead, hang)
 * and none is still "asking…": every engine answered or was given up on, the hung one after its
 * time limit.
 */
export async function clustersSettled(page: Page): Promise<boolean> {
  const states = await page.locator("[data-cluster-state]").allTextContents();
  return states.length === 4 && !states.some((state) => state.includes("asking"));
}

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugger protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const violations: Array<{ id: string; impact: string; help: string; nodes: unknown[] }> =
    await page.evaluate(async () => {
      const axe = (globalThis as any).axe;
      const result = await axe.run((globalThis as any).document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      });
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 3).map((node: any) => node.target.join(" ")),
      }));
    });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes)}`);
}

/**
 * The background colour the browser computed for the first element of `locator`, once there:
 * found and read in one evaluation (a live view may replace the element between two), polled.
 */
export const backgroundOf = async (locator: Locator): Promise<string> => {
  let colour = "";
  await expect
    .poll(
      async () => {
        const [first] = await locator.evaluateAll((nodes) =>
          nodes
            .slice(0, 1)
            .map((node) => String((globalThis as any).getComputedStyle(node).backgroundColor)),
        );
        return (colour = first ?? "");
      },
      { timeout: 10_000 },
    )
    .not.toBe("");
  return colour;
};
