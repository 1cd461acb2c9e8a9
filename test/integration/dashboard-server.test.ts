import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_CSP, findDashboard } from "../../src/server/dashboard.ts";
import { spawnServe } from "./helpers.ts";
import { raw, serverForFile, startServer, type TestServer } from "./server-helpers.ts";

/**
 * The dashboard's files as `serve` sends them (docs/http-interface.md, "Dashboard"): the page
 * and its assets without a token, their headers, and no way out of the folder. Needs the built
 * page (`npm run build`, which `npm test` runs first).
 */
const server = serverForFile({ log: false });
const built = findDashboard();
let assets: string[] = [];
beforeAll(async () => {
  if (!built) throw new Error("no built dashboard in dist/web: run npm run build");
  assets = (await readdir(join(built, "assets"))).map((name) => `/assets/${name}`);
});

describe("the page", () => {
  it.each(["/", "/index.html"])(
    "%s is the page, checked on every load, under a strict CSP",
    async (path) => {
      const response = await server.get(path);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      // No inline script or style anywhere: the CSP allows none.
      expect(response.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(response.text).not.toMatch(/<style|\sstyle=/);
      expect(response.text).toMatch(
        /<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js">/,
      );
    },
  );

  it("its page, scripts and styles go compressed as the browser asks, each the same bytes", async () => {
    for (const path of ["/", ...assets]) {
      const plain = await server.get(path);
      const gzipped = await server.get(path, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(gzipped.headers.vary).toBe("Accept-Encoding");
      if (plain.body.length < 1024) continue;
      expect(gzipped.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(gzipped.body).equals(plain.body)).toBe(true);
      expect(gzipped.headers["content-length"]).toBe(String(gzipped.body.length));
    }
  });

  it("CSP allows only the page's own origin, never inline code, eval or frames", () => {
    expect(DASHBOARD_CSP).toContain("script-src 'self';");
    expect(DASHBOARD_CSP).toContain("connect-src 'self';");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).toContain("base-uri 'none'");
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-|\*|https?:/);
  });

  it("its assets are cached for a year, under content-hashed names, and hold no eval", async () => {
    expect(assets.some((path) => path.endsWith(".js"))).toBe(true);
    expect(assets.some((path) => path.endsWith(".css"))).toBe(true);
    for (const path of assets) {
      const response = await server.get(path);
      expect(response.status).toBe(200);
      expect(path).toMatch(/-[\w-]{8}\.(js|css)$/);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.headers["content-type"]).toMatch(
        path.endsWith(".js") ? /^text\/javascript/ : /^text\/css/,
      );
      expect(response.text).not.toMatch(/\beval\(|new Function\(/);
    }
  });

  it("HEAD sends the headers only", async () => {
    const head = await raw(server.port, "/", { method: "HEAD" });
    expect(head).toMatchObject({ status: 200, text: "" });
    expect(head.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
  });

  it.each([
    "/assets/../package.json",
    "/assets/%2e%2e/package.json",
    "/assets/..%2f..%2fpackage.json",
    "/assets/%2e%2e%2f%2e%2e%2fpackage.json",
    "/assets/index.html",
    "/assets/",
    "/assets",
    "/assets/x%00.js",
    "/index.html/",
    "/..%2fpackage.json",
    "//etc/passwd",
    "/web/index.html",
    "/src/web/main.ts",
  ])("%s is 404 JSON, as any unknown path", async (path) => {
    const response = await server.get(path);
    expect(response.status).toBe(404);
    expect(response.json.error.code).toBe("ROUTE_NOT_FOUND");
    expect(response.headers["content-security-policy"]).toBeUndefined();
  });

  it("an asset's name with a query still names the asset; another method is refused", async () => {
    const path = assets[0]!;
    expect((await server.get(`${path}?v=1`)).status).toBe(200);
    expect((await raw(server.port, path, { method: "POST" })).status).toBe(404);
  });
});

describe("with a token", () => {
  let secured: TestServer;
  beforeAll(async () => {
    secured = await startServer({ token: "dash-secret", log: false });
  });
  afterAll(() => secured?.close());

  it("the page and its assets need none; every API route and unknown path still does", async () => {
    expect((await raw(secured.port, "/")).status).toBe(200);
    for (const path of assets) expect((await raw(secured.port, path)).status).toBe(200);
    for (const path of [
      "/list/cluster",
      "/assets/../package.json",
      "/assets/nope.js",
      "/openapi.json",
    ])
      expect((await raw(secured.port, path)).status).toBe(401);
  });
});

describe("the built serve", () => {
  it("finds the page in the package's dist/web, beside its bundle", async () => {
    const { child, line } = await spawnServe(["--quiet"]);
    try {
      const port = Number(/:(\d+)$/.exec(line)![1]);
      const page = await raw(port, "/");
      expect(page.status).toBe(200);
      expect(page.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
      const script = /src="\.(\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
      expect((await raw(port, script)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});

describe("the dashboard option", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "docklens-dash-"));
    await mkdir(join(dir, "assets"));
    await writeFile(join(dir, "index.html"), "<!doctype html><title>other</title>");
    await writeFile(join(dir, "assets", "app-12345678.js"), "export {};");
    await writeFile(join(dir, "assets", "notes.txt"), "not served: no known type");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("points at another folder, or turns the page off", async () => {
    const other = await startServer({ dashboard: dir, log: false });
    const off = await startServer({ dashboard: false, log: false });
    try {
      expect((await raw(other.port, "/")).text).toContain("<title>other</title>");
      expect((await raw(other.port, "/assets/app-12345678.js")).status).toBe(200);
      expect((await raw(other.port, "/assets/notes.txt")).status).toBe(404);
      expect((await raw(off.port, "/")).json.error.code).toBe("ROUTE_NOT_FOUND");
      expect((await raw(off.port, "/list/cluster")).status).toBe(200);
    } finally {
      await Promise.all([other.close(), off.close()]);
    }
  });
});
