import { createServer, request, type Server } from "node:http";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { docker, engines, withContainer, writeConfigWithHang } from "../helpers.ts";
import {
  axeViolations,
  backgroundOf,
  dashboardForFile,
  openPage,
  unique,
  liveFleet,
} from "./browser.ts";

/**
 * The dashboard keeping up with its engines (issue 29): a hung engine holds up only its own
 * rows, a container's page follows its container, the clusters view is live, the "live" pill
 * says when it is not, and the page works behind a reverse proxy on a subpath.
 */
/** The hung engine's limit here: long enough that waiting for it is plain to see. */
// 15 s: a first page load on a loaded CI lane must come well within it.
const HANG_MS = 15_000;
const dash = dashboardForFile(async () => {
  return { fleet: await liveFleet(await writeConfigWithHang("dashboard-follow.json", HANG_MS)) };
});
/** The browser's own log of the dead (502) and hung (504) engines' answers, read one by one. */
const DOWN = /status of 50[24]/;
const open = (hash: string) => dash.open(hash, undefined, DOWN);

const cell = (page: Page, name: string) =>
  page.locator("tbody tr[data-key] td:nth-child(2)", { hasText: new RegExp(`^${name}$`) });

describe("a hung engine", () => {
  it("holds up neither the containers nor the clusters of the engines that answered, on the first visit too", async () => {
    // A first visit: nothing remembered, the hung engine's first list under way on the server.
    const page = await open("#/containers");
    // Both polled together: the web row and the waiting line each come with their own answer.
    await expect
      .poll(
        async () => [
          await cell(page, "web").count(),
          await page
            .getByTestId("waiting")
            .filter({ hasText: /Waiting for hang/ })
            .count(),
        ],
        { timeout: HANG_MS - 3000 },
      )
      .toEqual([1, 1]);
    expect(await page.locator(".notice", { hasText: "hang is down" }).count()).toBe(0);
    // Then it joins as down.
    await expect
      .poll(() => page.locator(".notice", { hasText: "hang is down" }).count(), {
        timeout: HANG_MS + 10_000,
      })
      .toBe(1);
    expect(await page.locator(".notice", { hasText: "hang is down" }).textContent()).toMatch(
      /ENGINE_TIMEOUT/,
    );
    expect(await page.getByTestId("waiting").count()).toBe(0);

    // The clusters view, in a page of its own: the hung engine is known down now, said at once.
    const clusters = await open("#/");
    const state = (name: string) => clusters.locator(`[data-cluster-state="${name}"]`);
    await expect.poll(() => state("alpha").textContent(), { timeout: 10_000 }).toBe("up");
    await expect.poll(() => state("hang").textContent(), { timeout: 10_000 }).toBe("down");
    expect(await axeViolations(clusters)).toEqual([]);
  });
});

describe("a container's page", () => {
  it("follows its container: stopped, started again, removed", async () => {
    const name = unique();
    const args = ["--name", name, "local/busybox:1", "sh", "-c", "echo started; sleep 600"];
    await withContainer(engines.hostA, args, async () => {
      const page = await open(`#/cluster/alpha/container/${name}`);
      const badge = page.getByTestId("state");
      const logs = page.getByTestId("logs");
      const facts = page.locator("table.kv", { hasText: "Finished" });
      const stats = page.getByRole("region", { name: "Stats" });
      await expect.poll(() => badge.textContent()).toBe("running");
      await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain("started");
      await expect.poll(() => stats.textContent(), { timeout: 10_000 }).toMatch(/CPU\s*\d/);
      expect(await facts.textContent()).toMatch(/Finished\s*not yet/);

      await docker(engines.hostA, "stop", "-t", "0", name);
      await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("exited");
      expect(await facts.textContent()).not.toMatch(/Finished\s*not yet/);
      await expect.poll(() => stats.textContent()).toContain("not running");
      expect(await stats.textContent()).not.toMatch(/0 B of 0 B/);

      // Started again, its logs come again, as Dozzle's do.
      await docker(engines.hostA, "start", name);
      await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("running");
      await expect
        .poll(async () => (await logs.textContent())?.match(/started/g)?.length, {
          timeout: 10_000,
        })
        .toBe(2);
      await expect.poll(() => stats.textContent(), { timeout: 10_000 }).toMatch(/CPU\s*\d/);

      await docker(engines.hostA, "rm", "-f", name);
      await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("removed");
      expect(await page.locator(".notice.info").textContent()).toMatch(/was removed/);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it("follows a container removed and run again under its name at once (docker rm -f && docker run)", async () => {
    const name = unique();
    const args = ["--name", name, "local/busybox:1", "sleep", "600"];
    await withContainer(engines.hostA, args, async () => {
      const page = await open(`#/cluster/alpha/container/${name}`);
      await expect.poll(() => page.getByTestId("state").textContent()).toBe("running");
      await docker(engines.hostA, "rm", "-f", name);
      // The destroy and the new container's create and start fall in one burst of events.
      await withContainer(engines.hostA, args, async (id) => {
        const main = page.locator("main");
        await expect.poll(() => main.textContent(), { timeout: 10_000 }).toContain(id);
        expect(await page.getByTestId("state").textContent()).toBe("running");
        expect(await page.locator(".notice.info", { hasText: "was removed" }).count()).toBe(0);
      });
    });
  });
});

describe("the clusters view", () => {
  it("is live: a container created on a cluster moves its count", async () => {
    const page = await open("#/");
    const alpha = page
      .locator("tr", { has: page.locator('[data-cluster-state="alpha"]') })
      .locator("td:nth-child(3)");
    const total = async () => Number(/^\d+ \/ (\d+)$/.exec((await alpha.textContent()) ?? "")?.[1]);
    await expect.poll(total, { timeout: 15_000 }).toBeGreaterThan(0);
    const before = await total();
    const name = unique();
    try {
      await docker(engines.hostA, "create", "--name", name, "local/busybox:1", "true");
      await expect.poll(total, { timeout: 10_000 }).toBe(before + 1);
    } finally {
      await docker(engines.hostA, "rm", "-f", name);
    }
    await expect.poll(total, { timeout: 10_000 }).toBe(before);
  });
});

describe("the live pill", () => {
  it.each(["light", "dark"] as const)("is green only while live, in %s", async (colorScheme) => {
    const watched = await openPage(dash.browser, { colorScheme });
    try {
      const { page } = watched;
      // No watch stream: the pill says so, and not in the colour of "live".
      await page.route("**/list/containers?watch=*", (route) => route.abort());
      await page.goto(`${dash.url}/#/containers?cluster=alpha`);
      const pill = page.getByTestId("live");
      await expect.poll(() => pill.textContent(), { timeout: 15_000 }).toMatch(/retrying/);
      // (No rows either: they come from that stream.)
      const retrying = await backgroundOf(pill);
      await page.unroute("**/list/containers?watch=*");
      await expect.poll(() => pill.textContent(), { timeout: 15_000 }).toBe("live");
      const good = page.locator(".badge.good").first();
      expect(retrying).not.toBe(await backgroundOf(good));
      expect(await backgroundOf(pill)).toBe(await backgroundOf(good));
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await watched.close();
    }
    expect(watched.problems.filter((line) => !/ERR_FAILED/.test(line) && !DOWN.test(line))).toEqual(
      [],
    );
  });
});

/** A reverse proxy on loopback serving the app under `/docklens/`, as nginx's `proxy_pass` does. */
async function subpathProxy(
  port: number,
): Promise<{ server: Server; url: string; outside: string[] }> {
  const outside: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith("/docklens/")) {
      outside.push(url);
      res.writeHead(404).end();
      return;
    }
    const upstream = request(
      {
        host: "127.0.0.1",
        port,
        path: url.slice("/docklens".length),
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: own } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${own}/docklens/`, outside };
}

describe("behind a reverse proxy on a subpath", () => {
  it("calls the interface under the subpath: lists, events and a container's page", async () => {
    const proxy = await subpathProxy(dash.port);
    const watched = await openPage(dash.browser);
    try {
      const { page } = watched;
      await page.goto(`${proxy.url}#/containers?cluster=alpha`);
      await expect.poll(() => cell(page, "web").count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => page.getByTestId("live").textContent()).toBe("live");
      await cell(page, "web").getByRole("link").click();
      await expect
        .poll(() => page.getByTestId("logs").textContent(), { timeout: 10_000 })
        .toMatch(/out \d+/);
      await page.getByRole("link", { name: "Clusters" }).click();
      await expect
        .poll(() => page.locator('[data-cluster-state="alpha"]').textContent())
        .toBe("up");
      expect(page.url()).toBe(`${proxy.url}#/`);
      expect(proxy.outside).toEqual([]);
    } finally {
      await watched.close();
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
    expect(watched.problems.filter((line) => !DOWN.test(line))).toEqual([]);
  });
});
