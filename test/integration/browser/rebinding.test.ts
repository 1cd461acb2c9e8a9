import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../server-helpers.ts";
import { CHROMIUM } from "./browser.ts";
import ARGS from "./chromium-args.json" with { type: "json" };

/**
 * A web page the operator visits, against a serve without a token, in a real browser: through
 * DNS rebinding (the attacker's name comes to resolve to serve's address: Chromium's own
 * resolver rule maps it to 127.0.0.1, so no query leaves the machine), and from another origin.
 */
let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...ARGS,
      "--host-resolver-rules=MAP rebind.test 127.0.0.1, MAP other.test 127.0.0.1",
      // Chromium's own guard of local addresses, off: Firefox and Safari have none, and a
      // rebinding page can be on a local address of its own.
      "--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,LocalNetworkAccessChecks",
    ],
  });
  server = await startServer();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page of the attacker's at `url` (its first answer: the browser serves it), then `script` run in it. */
async function fromAttackerPage(url: string, script: string): Promise<unknown> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route(url, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><title>cat pictures</title>",
      }),
    );
    await page.goto(url);
    return await page.evaluate(script);
  } finally {
    await context.close();
  }
}

describe("a web page the operator visits", () => {
  it("cannot read serve through a name rebound to its address: 403 HOST_NOT_ALLOWED", async () => {
    const answer = await fromAttackerPage(
      `http://rebind.test:${server.port}/cats`,
      `fetch("/list/cluster").then(async (r) => [r.status, await r.text()])`,
    );
    expect(answer).toEqual([403, expect.stringContaining('"code":"HOST_NOT_ALLOWED"')]);
    expect(server.logs).toContainEqual(expect.stringMatching(/^GET \/list\/cluster 403 /));
  });

  it("of another origin gets nothing, not even an engine call: 403 ORIGIN_NOT_ALLOWED", async () => {
    const before = server.logs.length;
    await fromAttackerPage(
      "http://other.test:9/cats",
      `fetch("http://127.0.0.1:${server.port}/list/alpha/containers", { mode: "no-cors" }).then(() => "sent")`,
    );
    expect(server.logs.slice(before)).toEqual([
      expect.stringMatching(/^GET \/list\/alpha\/containers 403 /),
    ]);
  });
});
