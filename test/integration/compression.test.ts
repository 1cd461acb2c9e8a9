import * as zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFleet } from "../../src/core/engine/fleet.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { engines } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { raw, startServer, type RawResponse, type TestServer } from "./server-helpers.ts";

// The server's own zlib calls, counted: how many times a body was compressed, with no hook in src.
vi.mock("node:zlib", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:zlib")>();
  return { ...actual, gzip: vi.fn(actual.gzip), brotliCompress: vi.fn(actual.brotliCompress) };
});
const gzipCalls = () => vi.mocked(zlib.gzip).mock.calls.length;
const brotliCalls = () => vi.mocked(zlib.brotliCompress).mock.calls.length;

/**
 * Engines A and B as alpha and bravo, each behind a proxy that holds answers 1.5 s: requests sent
 * together then share one engine read, so their bodies are the same whatever the clock says
 * (container statuses read "Up 5 seconds"), and the proxies count the reads. (At 150 ms, and once
 * at 600 ms, 26 requests sent at once on a loaded machine came too far apart to share one.)
 */
let proxies: LinkProxy[];
let server: TestServer;
beforeAll(async () => {
  proxies = await Promise.all([
    startProxy({ path: engines.hostA.replace("unix://", "") }, 1500),
    startProxy({ path: engines.adminB.replace("unix://", "") }, 1500),
  ]);
  const clusters = ["alpha", "bravo"].map((name, index) => ({
    name,
    host: "127.0.0.1",
    port: proxies[index]!.port,
  }));
  server = await startServer({ fleet: createFleet(normalizeConfig({ clusters }, null)) });
});
afterAll(async () => {
  await server.close();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

const containerLists = () =>
  proxies.map(
    (proxy) => proxy.requests.filter((line) => line.startsWith("GET /containers/json")).length,
  );
const get = (path: string, encoding?: string, method = "GET") =>
  raw(server.port, path, {
    method,
    headers: encoding === undefined ? {} : { "accept-encoding": encoding },
  });
const decoded = (response: RawResponse): Buffer =>
  response.headers["content-encoding"] === "gzip"
    ? zlib.gunzipSync(response.body)
    : response.headers["content-encoding"] === "br"
      ? zlib.brotliDecompressSync(response.body)
      : response.body;

describe("compressed bodies (docs/http-interface.md, Compression)", () => {
  it("a gzip and a br request to /list/containers decode to exactly the identity body", async () => {
    const before = containerLists();
    const [plain, gzipped, brotli, both] = await Promise.all([
      get("/list/containers"),
      get("/list/containers", "gzip"),
      get("/list/containers", "br"),
      get("/list/containers", "gzip, deflate, br"),
    ]);
    expect(containerLists()).toEqual(before.map((count) => count + 1));
    expect(plain.json.containers.length).toBeGreaterThan(5);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect([gzipped, brotli, both].map((r) => r.headers["content-encoding"])).toEqual([
      "gzip",
      "br",
      "br",
    ]);
    for (const response of [plain, gzipped, brotli, both]) {
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
      expect(decoded(response).equals(plain.body)).toBe(true);
    }
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 3);
  });

  it("concurrent identical requests of one shared body compress it once per coding", async () => {
    const [gzipBefore, brotliBefore] = [gzipCalls(), brotliCalls()];
    const before = containerLists();
    const responses = await Promise.all([
      ...Array.from({ length: 12 }, () => get("/list/alpha/containers", "gzip")),
      ...Array.from({ length: 12 }, () => get("/list/alpha/containers", "br")),
      get("/list/alpha/containers", "gzip", "HEAD"),
      get("/list/alpha/containers"),
    ]);
    // One engine read served them all, so they all had the same body object.
    expect(containerLists()).toEqual([before[0]! + 1, before[1]]);
    expect(gzipCalls() - gzipBefore).toBe(1);
    expect(brotliCalls() - brotliBefore).toBe(1);
    const gzipped = responses.slice(0, 12);
    const brotli = responses.slice(12, 24);
    const [head, plain] = responses.slice(24) as [RawResponse, RawResponse];
    expect(new Set(gzipped.map((r) => r.body.toString("base64"))).size).toBe(1);
    expect(new Set(brotli.map((r) => r.body.toString("base64"))).size).toBe(1);
    expect(decoded(gzipped[0]!).equals(plain.body)).toBe(true);
    expect(decoded(brotli[0]!).equals(plain.body)).toBe(true);
    // HEAD: the headers GET has, no body.
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers["content-length"]).toBe(String(gzipped[0]!.body.length));
    expect(head.headers.vary).toBe("Accept-Encoding");
  });

  it("concurrent identical requests over many clusters share one body, compressed once", async () => {
    const [gzipBefore, brotliBefore] = [gzipCalls(), brotliCalls()];
    const before = containerLists();
    // The same read, however the clusters are named: by name, by id, in another order, or all.
    const paths = [
      "/list/containers",
      "/list/containers?cluster=alpha&cluster=bravo",
      "/list/containers?cluster=2&cluster=1",
      "/list/containers?cluster=bravo&cluster=alpha&cluster=alpha",
    ];
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        get(paths[index % paths.length]!, index % 2 ? "br" : "gzip"),
      ),
    );
    expect(containerLists()).toEqual([before[0]! + 1, before[1]! + 1]);
    expect(gzipCalls() - gzipBefore).toBe(1);
    expect(brotliCalls() - brotliBefore).toBe(1);
    expect(new Set(responses.map((r) => decoded(r).toString("base64"))).size).toBe(1);
  });

  it("sends small bodies as they are, unless the client refuses that", async () => {
    const small = await get("/healthz", "gzip, br");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toBe("Accept-Encoding");
    expect(small.json).toEqual({ status: "ok" });
    const refused = await get("/healthz", "gzip, identity;q=0");
    expect(refused.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decoded(refused).toString())).toEqual({ status: "ok" });
    // A 404 is small too: errors go as they are.
    const missing = await get("/list/nope/containers", "gzip");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    expect(missing.json.error.code).toBe("CLUSTER_NOT_FOUND");
  });

  it("sends no coding to a client that asks for none, or for identity, or for codings docklens lacks", async () => {
    for (const encoding of [undefined, "", "identity", "deflate, zstd", "gzip;q=0, br;q=0"]) {
      const response = await get("/list/alpha/containers", encoding);
      expect(response.headers["content-encoding"], String(encoding)).toBeUndefined();
      expect(response.json.containers.length).toBeGreaterThan(5);
    }
  });

  it("never compresses streams", async () => {
    const now = Math.floor(Date.now() / 1000);
    const events = await get(`/events?cluster=alpha&since=${now - 30}&until=${now - 1}`, "gzip");
    expect(events.status).toBe(200);
    expect(events.headers["content-type"]).toBe("application/x-ndjson");
    expect(events.headers["content-encoding"]).toBeUndefined();
    expect(events.headers.vary).toBeUndefined();
  });

  it("compresses /metrics for a scraper that asks, as Prometheus does", async () => {
    const metrics = await get("/metrics", "gzip");
    expect(metrics.headers["content-encoding"]).toBe("gzip");
    expect(metrics.headers["content-type"]).toMatch(/^text\/plain/);
    expect(decoded(metrics).toString()).toMatch(/^docklens_engine_up\{cluster="alpha"\} 1$/m);
  });

  it("adds Accept-Encoding to the Vary of CORS", async () => {
    const cors = await startServer({ cors: "https://dash.example", log: false });
    try {
      const response = await raw(cors.port, "/healthz");
      expect(response.headers.vary).toBe("Origin, Accept-Encoding");
    } finally {
      await cors.close();
    }
  });
});
