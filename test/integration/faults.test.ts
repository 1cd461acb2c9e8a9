import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFleet, loadFleet } from "../../src/core/engine/fleet.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { engines, writeConfigWithHang } from "./helpers.ts";
import { startProxy, type LinkProxy } from "./proxy.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

const engineB = { path: engines.adminB.replace("unix://", "") };

/** An app whose only cluster `proxied` is engine B behind `proxy`. */
async function serverBehind(
  proxy: LinkProxy,
  extra: Record<string, unknown> = {},
): Promise<TestServer> {
  const config = normalizeConfig(
    {
      clusters: [
        { name: "proxied", host: "127.0.0.1", port: proxy.port, timeoutMs: 3000, ...extra },
      ],
    },
    null,
  );
  return startServer({ fleet: createFleet(config), log: false });
}

const containerLists = (proxy: LinkProxy) =>
  proxy.requests.filter((line) => line.startsWith("GET /containers/json")).length;

describe("engine layer under load", () => {
  it("16 clients asking for the same list at once cost the engine one call", async () => {
    // Answers held 1.5 s, as compression.test.ts's: on a loaded machine 16 requests sent at once
    // took more than 150 ms to arrive, and the last came after the first read had ended.
    const proxy = await startProxy(engineB, 1500);
    const server = await serverBehind(proxy);
    try {
      const answers = await Promise.all(
        Array.from({ length: 16 }, () => raw(server.port, "/list/proxied/containers")),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
      expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
      expect(containerLists(proxy)).toBe(1);
      await raw(server.port, "/list/proxied/containers");
      expect(containerLists(proxy)).toBe(2); // Nothing read before a request arrived is served to it.
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it("with cacheTtlMs, a recent read is served again", async () => {
    const proxy = await startProxy(engineB);
    const server = await serverBehind(proxy, { cacheTtlMs: 60_000 });
    try {
      for (let i = 0; i < 3; i++)
        expect((await raw(server.port, "/list/proxied/volumes")).status).toBe(200);
      expect(proxy.requests.filter((line) => line.startsWith("GET /volumes")).length).toBe(1);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it("a client that leaves cancels the engine call nobody else waits for", async () => {
    const proxy = await startProxy(engineB, 1000);
    const server = await serverBehind(proxy);
    try {
      const controller = new AbortController();
      const leaving = fetch(`${server.url}/list/proxied/containers`, {
        signal: controller.signal,
      }).catch((error: Error) => error.name);
      while (containerLists(proxy) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      expect(await leaving).toBe("AbortError");
      for (let i = 0; i < 50 && proxy.cancelled === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(proxy.cancelled).toBe(1);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it("an engine whose link is cut and restored mid-load is served again at once, without a restart", async () => {
    const proxy = await startProxy(engineB);
    const server = await serverBehind(proxy);
    const statuses: number[] = [];
    try {
      for (let round = 0; round < 30; round++) {
        if (round === 10) await proxy.cut();
        if (round === 20) await proxy.restore();
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => raw(server.port, "/list/proxied/containers")),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      expect(statuses.slice(0, 40)).toEqual(Array(40).fill(200));
      expect(new Set(statuses.slice(40, 80))).toEqual(new Set([502]));
      expect(statuses.slice(80)).toEqual(Array(40).fill(200));
    } finally {
      await server.close();
      await proxy.close();
    }
  });
});

describe("engines that misbehave", () => {
  it("calls that time out give their place back: a stuck image inspect never blocks the cluster", async () => {
    // An engine that answers lists at once and never answers an image inspect.
    const engine: Server = createServer((req, res) => {
      if (req.url?.startsWith("/images/")) return;
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    });
    await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
    const port = (engine.address() as { port: number }).port;
    const config = normalizeConfig(
      // 1 s: a stall of the worker's event loop must not fail the list that follows.
      {
        clusters: [{ name: "stuck", host: "127.0.0.1", port, timeoutMs: 1000, maxConcurrency: 2 }],
      },
      null,
    );
    const server = await startServer({ fleet: createFleet(config), log: false });
    try {
      const inspects = await Promise.all(
        ["a:1", "b:1", "c:1"].map((image) => raw(server.port, `/detail/stuck/image/${image}`)),
      );
      expect(inspects.map((answer) => answer.status)).toEqual([504, 504, 504]);
      expect((await raw(server.port, "/list/stuck/containers")).json).toEqual({
        containers: [],
        running: [],
      });
    } finally {
      await server.close();
      engine.closeAllConnections();
      engine.close();
    }
  });

  it("an https:// engine without a tls block is dialled over TLS", async () => {
    // A plain-HTTP engine dialled over TLS: the handshake fails, where a misdial would not even try.
    const proxy = await startProxy(engineB);
    const config = normalizeConfig(
      { clusters: [{ name: "tls", host: `https://127.0.0.1:${proxy.port}` }] },
      null,
    );
    const server = await startServer({ fleet: createFleet(config), log: false });
    try {
      const answer = await raw(server.port, "/list/tls/containers");
      expect(answer.status).toBe(502);
      expect(answer.json.error.message).not.toMatch(/ERR_INVALID_PROTOCOL/);
      expect(answer.json.error.message).toMatch(/TLS failure|connection (reset|closed)/);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it("a CONNECT whose client resets the connection leaves the server running", async () => {
    const server = await startServer({ log: false });
    try {
      const socket = connect(server.port, "127.0.0.1");
      await once(socket, "connect");
      socket.write("CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n");
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await raw(server.port, "/healthz")).status).toBe(200);
      expect(await sendRaw(server.port, "CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n")).toMatch(
        /^HTTP\/1\.1 405 /,
      );
    } finally {
      await server.close();
    }
  });
});

describe("isolation", () => {
  let server: TestServer;
  beforeAll(async () => {
    // hang's limit 3 s here, not the suite's 800 ms: on a loaded CI lane 20 reads of the others
    // once took longer than 800 ms, and one came after hang's 504.
    const configPath = await writeConfigWithHang("faults-isolation.json", 3000);
    server = await startServer({ log: false, fleet: await loadFleet({ configPath }) });
  });
  afterAll(() => server.close());

  it("a hanging engine costs its own cluster its time limit and never holds up another", async () => {
    const order: string[] = [];
    const hanging = raw(server.port, "/list/hang/containers").then(
      (answer) => (order.push("hang"), answer),
    );
    const others = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        raw(server.port, i % 2 ? "/list/alpha/containers" : "/list/bravo/volumes").then(
          (answer) => (order.push("other"), answer),
        ),
      ),
    );
    expect(others.every((answer) => answer.status === 200)).toBe(true);
    expect((await hanging).status).toBe(504);
    expect(order.at(-1)).toBe("hang");
    expect(order.indexOf("hang")).toBe(20);
  });

  it("600 hostile requests: no 5xx but 502/504, no stack trace, and the service lives on", async () => {
    const requests = hostileRequests(600);
    const seen = new Map<number, number>();
    for (let i = 0; i < requests.length; i += 20) {
      const answers = await Promise.all(
        requests.slice(i, i + 20).map((request) => sendRaw(server.port, request)),
      );
      for (const answer of answers) {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
        seen.set(status, (seen.get(status) ?? 0) + 1);
        if (status >= 500) expect([502, 504]).toContain(status);
        expect(answer).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);
        expect(answer).not.toMatch(/node_modules|\/src\//);
      }
    }
    expect(seen.get(0) ?? 0).toBe(0);
    expect(
      [...seen.keys()].every((status) =>
        [200, 204, 400, 401, 404, 405, 409, 413, 414, 431, 502, 504].includes(status),
      ),
    ).toBe(true);
    expect((await raw(server.port, "/healthz")).status).toBe(200);
    expect((await raw(server.port, "/list/alpha/containers")).status).toBe(200);
  });
});

/** Raw HTTP requests nobody should send: bad encodings, dot segments, odd methods, long paths, header injection. */
function hostileRequests(count: number): string[] {
  const paths = [
    "/detail/alpha/container/..%2F..%2Fimages%2Fjson",
    "/detail/alpha/container/%2e%2e%2f%2e%2e",
    "/detail/alpha/container/%E0%A4%A",
    "/detail/alpha/container/%00",
    "/detail/alpha/container/web%0d%0aX-Injected:%201",
    "/detail/alpha/image/../../../etc/passwd",
    "/detail/alpha/image/%2e%2e/%2e%2e/containers/json",
    "/list/../../containers/create",
    "/list/alpha/containers/../../../images/json",
    "/detail/alpha/container/web/logs?tail=%ff%fe",
    "/detail/alpha/container/web/logs?since=../../",
    "/detail/alpha/container/web/process?ps_args=-ef%3Brm%20-rf%20%2F",
    `/list/${"%2e".repeat(3000)}/containers`,
    `/${"a/".repeat(4600)}`,
    "//list//cluster",
    "/list/cluster%00",
    "/list/cluster#frag",
    "*",
    "http://169.254.169.254/latest/meta-data/",
  ];
  const methods = [
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "OPTIONS",
    "TRACE",
    "PROPFIND",
    "CONNECT",
    "FOO",
  ];
  const headers = [
    "",
    "X-Evil: a\rb\r\n",
    "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n",
    "Authorization: Bearer \u0000\r\n",
    `X-Big: ${"b".repeat(9000)}\r\n`,
    "Host: a\r\nHost: b\r\n",
  ];
  return Array.from({ length: count }, (_, i) => {
    const method = methods[i % methods.length]!;
    const path = paths[(i * 7) % paths.length]!;
    const header = headers[(i * 5) % headers.length]!;
    return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${header}\r\n`;
  });
}

/** Send bytes as they are and read the answer until the server closes (5 s at most). */
function sendRaw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => (clearTimeout(timer), resolve(answer)));
    socket.on("error", () => undefined);
    // Not end(): a client that half-closes gets no answer from Node; `Connection: close` ends it.
    socket.write(request, "latin1");
  });
}
