import { request, type ClientRequest, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import type { DocklensError } from "../../src/core/errors.ts";
import { openEngineStream } from "../../src/core/engine/engine-stream.ts";
import { loadFleet, resolveCluster } from "../../src/core/engine/fleet.ts";
import { MAX_ENGINE_STREAMS } from "../../src/core/engine/engine-client.ts";
import { MAX_LINE_LENGTH } from "../../src/core/containers/container-output.ts";
import { followContainerLogs } from "../../src/core/containers/logs.ts";
import { engines, withContainer, writeConfig } from "./helpers.ts";
import { noEngineStreamsLeft, raw, serverForFile, startServer } from "./server-helpers.ts";

/** What serve answers without a token (DNS rebinding, other sites), and its limits on streams. */
const server = serverForFile();

const FOLLOW = "/detail/alpha/container/web/logs?follow=true&tail=0";

/** Open a stream and keep it open: resolves once its headers came. */
function openStream(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers }, (res) => resolve({ req, res }));
    req.on("error", reject);
    req.end();
  });
}

describe("without a token", () => {
  it("answers only the names it is reached by: loopback, addresses, localhost, the allowed hosts", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${server.port}`,
      "127.0.0.1.nip.io",
      "localhost.evil.example",
    ])
      for (const path of ["/list/cluster", "/", "/healthz", "/nope"]) {
        const answer = await server.get(path, { host });
        expect({ host, path, status: answer.status }).toEqual({ host, path, status: 403 });
        expect(answer.json.error.code).toBe("HOST_NOT_ALLOWED");
        expect(answer.json.error.message).toMatch(/--allowed-host/);
      }
    for (const host of [
      `127.0.0.1:${server.port}`,
      "127.0.0.2",
      `[::1]:${server.port}`,
      `localhost:${server.port}`,
      "LocalHost.",
      "app.localhost",
      "192.0.2.7:80",
    ])
      expect((await server.get("/list/cluster", { host })).status, host).toBe(200);
    const config = await writeConfig("allowed-hosts.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      allowedHosts: ["docklens.test", ".corp.test"],
    });
    const allowed = await startServer({
      fleet: await loadFleet({ configPath: config }),
      allowedHosts: ["ops.test"],
      log: false,
    });
    try {
      for (const host of ["ops.test", "docklens.test:8080", "corp.test", "a.b.corp.test"])
        expect((await raw(allowed.port, "/list/cluster", { headers: { host } })).status).toBe(200);
      for (const host of ["evil.test", "xcorp.test", "docklens.test.evil"])
        expect((await raw(allowed.port, "/list/cluster", { headers: { host } })).status).toBe(403);
    } finally {
      await allowed.close();
    }
  });

  it("with a token, any Host: the token is the defence", async () => {
    const secured = await startServer({ token: "t0ken", log: false });
    try {
      const call = (headers: Record<string, string>) =>
        raw(secured.port, "/list/cluster", { headers: { host: "evil.example", ...headers } });
      expect((await call({})).status).toBe(401);
      expect((await call({ authorization: "Bearer t0ken" })).status).toBe(200);
    } finally {
      await secured.close();
    }
  });

  it("no web page of another site or origin reads it; its own page, links and the --cors origin do", async () => {
    const refused: Array<Record<string, string>> = [
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors", origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" },
      { "sec-fetch-site": "same-site", "sec-fetch-mode": "cors", origin: "http://localhost:3000" },
      { origin: "https://evil.example" },
      { origin: "null" },
    ];
    for (const headers of refused) {
      const answer = await server.get("/list/alpha/containers", headers);
      expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
      expect(answer.json.error.code).toBe("ORIGIN_NOT_ALLOWED");
    }
    const own = `http://127.0.0.1:${server.port}`;
    for (const headers of [
      { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", origin: own },
      { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" },
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      { origin: own },
    ] as Array<Record<string, string>>)
      expect((await server.get("/list/alpha/containers", headers)).status).toBe(200);
    const cors = await startServer({ cors: "https://ops.example", log: false });
    try {
      const answer = await raw(cors.port, "/list/cluster", {
        headers: { "sec-fetch-site": "cross-site", origin: "https://ops.example" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers["access-control-allow-origin"]).toBe("https://ops.example");
      const other = await raw(cors.port, "/list/cluster", {
        headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      });
      expect(other.status).toBe(403);
    } finally {
      await cors.close();
    }
  });

  it("lists both codes in the OpenAPI document; a server with a token has no need of them", async () => {
    const document = (await server.get("/openapi.json")).json;
    expect(document.paths["/list/cluster"].get.responses["403"].description).toBe(
      "HOST_NOT_ALLOWED, ORIGIN_NOT_ALLOWED",
    );
    const follow = document.paths["/detail/{cluster}/container/{containerName}/logs"].get;
    expect(follow.responses["429"].description).toBe("TOO_MANY_STREAMS");
    expect(follow.responses["503"].description).toBe("STREAM_POOL_FULL");
  });
});

describe("streams", () => {
  it("caps the streams one client holds open: past the cap, 429 TOO_MANY_STREAMS; one that ends frees its place", async () => {
    const capped = await startServer({ maxStreams: 2, log: false });
    const open: Array<{ req: ClientRequest }> = [];
    try {
      open.push(await openStream(capped.port, FOLLOW));
      open.push(await openStream(capped.port, "/events"));
      for (const path of [FOLLOW, "/events", "/detail/alpha/container/web/stats?stream=1"]) {
        const answer = await raw(capped.port, path);
        expect({ path, status: answer.status }).toEqual({ path, status: 429 });
        expect(answer.json.error.code).toBe("TOO_MANY_STREAMS");
      }
      // What does not stream is not counted.
      expect((await raw(capped.port, "/detail/alpha/container/web/logs?tail=1")).status).toBe(200);
      open.shift()!.req.destroy();
      await expect
        .poll(async () => {
          const stream = await openStream(capped.port, FOLLOW);
          open.push(stream);
          return stream.res.statusCode;
        })
        .toBe(200);
    } finally {
      for (const { req } of open) req.destroy();
      await capped.close();
    }
    expect(await noEngineStreamsLeft()).toBe(0);
  });

  it("a cluster's engine streams all taken is docklens's own STREAM_POOL_FULL at once, never an ENGINE_TIMEOUT", async () => {
    const fleet = await loadFleet({ configPath: engines.configPath });
    const controller = new AbortController();
    // The engine's event stream, opened as every stream is: dockerd answers it at once, where a
    // log or attach stream waits for the container's next line.
    const open = (name: string, signal = controller.signal) =>
      openEngineStream(
        resolveCluster(name, { fleet }),
        (engine, stop) => engine.get("/events", stop, { stream: true }) as never,
        { fleet, signal },
      );
    try {
      // A few at a time: each opening waits its turn among the cluster's calls, within its time limit.
      const first = new AbortController();
      const streams = [await open("alpha", first.signal)];
      while (streams.length < MAX_ENGINE_STREAMS)
        streams.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(16, MAX_ENGINE_STREAMS - streams.length) }, () =>
              open("alpha"),
            ),
          )),
        );
      await expect(open("alpha")).rejects.toMatchObject({ code: "STREAM_POOL_FULL" });
      // Another cluster has its own.
      await (await open("bravo")).return(undefined);
      // One ends: its place is free again.
      first.abort();
      await expect
        .poll(() =>
          open("alpha").then(
            (stream) => stream.return(undefined).then(() => "opened"),
            (error: DocklensError) => error.code,
          ),
        )
        .toBe("opened");
    } finally {
      controller.abort();
      fleet.close();
    }
    expect(await noEngineStreamsLeft()).toBe(0);
  });
});

describe("followed lines", () => {
  it("a line without a newline comes in pieces of at most MAX_LINE_LENGTH, each with its time, never joined without end", async () => {
    const name = "lens-long-line";
    // 2.5 MB of one line, then nothing: its end never comes.
    const script = "head -c 2500000 /dev/zero | tr '\\0' a; sleep 100000";
    await withContainer(
      engines.hostA,
      ["--name", name, "local/busybox:1", "sh", "-c", script],
      async () => {
        const fleet = await loadFleet({ configPath: engines.configPath });
        const controller = new AbortController();
        try {
          const lines = await followContainerLogs(
            { cluster: "alpha", name },
            { fleet, signal: controller.signal, query: { tail: "all", timestamps: true } },
          );
          const got = [];
          for await (const line of lines) if (got.push(line) === 2) break;
          expect(got.map((line) => line.text.length)).toEqual([MAX_LINE_LENGTH, MAX_LINE_LENGTH]);
          expect(got.every((line) => /^a+$/.test(line.text) && /^\d{4}-/.test(line.time!))).toBe(
            true,
          );
        } finally {
          controller.abort();
          fleet.close();
        }
      },
    );
  });
});

describe("the request log", () => {
  it("writes values only of the parameters the route declares: a token in any other stays out", async () => {
    const logged = await startServer();
    try {
      await raw(logged.port, "/list/cluster?t=s3cret-1&mytok=s3cret-2");
      await raw(logged.port, "/detail?x=s3cret-3");
      await raw(logged.port, "/list/alpha/containers?filter=name%3Dweb&t=s3cret-4");
      expect(logged.logs.map((line) => line.replace(/ \d+ms$/, ""))).toEqual([
        "GET /list/cluster?t&mytok 200",
        "GET /detail?x 200",
        "GET /list/alpha/containers?filter=name%3Dweb&t 200",
      ]);
    } finally {
      await logged.close();
    }
  });
});
