import { spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import { request } from "node:http";
import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { BIN, cli, engines, spawnServe } from "./helpers.ts";
import { raw } from "./server-helpers.ts";

describe("docklens serve", () => {
  it("prints its address, serves the routes, and stops cleanly on SIGTERM after in-flight requests", async () => {
    const { child, line, stderr } = await spawnServe([]);
    const match = /^docklens: serving 4 clusters on http:\/\/127\.0\.0\.1:(\d+)$/.exec(line);
    expect(match, line).not.toBeNull();
    const port = Number(match![1]);
    expect((await raw(port, "/list/cluster")).json.clusters).toHaveLength(4);
    const inFlight = raw(port, "/list/hang/containers");
    // Time for serve to take the request (under hang's 800 ms limit): one it had not read yet
    // would be reset by the close, not answered.
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill("SIGTERM");
    expect((await inFlight).status).toBe(504);
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(stderr()).toMatch(/GET \/list\/cluster 200 \d+ms/);
    expect(stderr()).toMatch(/SIGTERM: finishing in-flight requests/);
  });

  it("ends open streams on SIGTERM instead of waiting for them, with a last line that says why", async () => {
    const { child, line } = await spawnServe([]);
    const port = Number(/:(\d+)$/.exec(line)![1]);
    const stream = await new Promise<import("node:http").IncomingMessage>((resolve) =>
      request(
        { host: "127.0.0.1", port, path: "/detail/alpha/container/web/logs?follow=true&tail=0" },
        resolve,
      ).end(),
    );
    expect(stream.statusCode).toBe(200);
    let body = "";
    stream.on("data", (chunk: Buffer) => (body += chunk.toString()));
    const ended = once(stream, "end");
    child.kill("SIGTERM");
    const exited = once(child, "exit");
    // Well under the 10 s that in-flight requests get: the stream was ended, not waited out.
    const first = await Promise.race([
      exited.then(() => "exited"),
      new Promise((resolve) => setTimeout(resolve, 5000, "still running")),
    ]);
    expect(first).toBe("exited");
    expect((await exited)[0]).toBe(0);
    await ended;
    // A client can tell this end from the container stopping (which ends the stream with no such line).
    const last = JSON.parse(body.trim().split("\n").at(-1)!);
    expect(last).toEqual({
      error: {
        code: "SHUTTING_DOWN",
        message: "docklens serve is shutting down; the stream ends here",
      },
    });
  });

  it("--json prints the address as JSON and logs JSON lines; --token guards it", async () => {
    const { child, line, stderr } = await spawnServe(["--json", "--token", "t0k3n"]);
    const address = JSON.parse(line);
    expect(address).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      clusters: 4,
      token: true,
    });
    const port = Number(new URL(address.url).port);
    expect((await raw(port, "/detail")).status).toBe(401);
    expect(
      (await raw(port, "/detail", { headers: { authorization: "Bearer t0k3n" } })).status,
    ).toBe(200);
    child.kill("SIGINT");
    expect((await once(child, "exit"))[0]).toBe(0);
    // Every line on stderr is JSON, the shutdown's included.
    const lines = stderr()
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(lines[0]).toMatchObject({ method: "GET", path: "/detail", status: 401 });
    expect(lines.at(-1)).toMatchObject({
      signal: "SIGINT",
      message: "finishing in-flight requests",
    });
  });

  it("--token-file: the token from a file, trimmed, not in the arguments; unreadable or empty is a usage error", async () => {
    const file = join(engines.tmp, "serve.token");
    await writeFile(file, "f1le-t0k3n\n");
    try {
      const { child, line, stderr } = await spawnServe(["--json", "--token-file", file]);
      const port = Number(new URL(JSON.parse(line).url).port);
      expect(child.spawnargs.join(" ")).not.toContain("f1le-t0k3n");
      expect((await raw(port, "/detail")).status).toBe(401);
      const headers = { authorization: "Bearer f1le-t0k3n" };
      expect((await raw(port, "/detail", { headers })).status).toBe(200);
      child.kill("SIGTERM");
      await once(child, "exit");
      expect(stderr()).not.toContain("f1le-t0k3n");
      await writeFile(file, " \n");
      for (const [args, message] of [
        [
          ["--token-file", join(engines.tmp, "nope.token")],
          "--token-file: cannot read the file (no such file)",
        ],
        [["--token-file", engines.tmp], "--token-file: cannot read the file (is a directory)"],
        [["--token-file", file], "--token-file: the file is empty"],
        [["--token-file", file, "--token", "t"], "--token-file: give it or --token, not both"],
      ] as const) {
        const result = await cli(["serve", "--port", "0", ...args, "--config", engines.configPath]);
        expect(result).toEqual({ code: 2, stdout: "", stderr: `docklens: ${message}\n` });
      }
    } finally {
      await rm(file, { force: true });
    }
  });

  it("logs the path and parameter names: no value of a refused request nor of a secret's name; DOCKLENS_TOKEN by name", async () => {
    process.env.DOCKLENS_TOKEN = "env-t0k3n";
    const served = await spawnServe(["--json"]).finally(() => delete process.env.DOCKLENS_TOKEN);
    const { child, line, stderr } = served;
    const port = Number(new URL(JSON.parse(line).url).port);
    const headers = { authorization: "Bearer env-t0k3n" };
    await raw(port, "/detail?token=s3cret-1");
    await raw(port, "/detail?token=s3cret-2&x=1&%4Bey=s3cret-3&db_password", { headers });
    await raw(port, "/list/containers?cluster=alpha&api_key=s3cret-4", { headers });
    await raw(port, "/list/containers?cluster=alpha&filter=name%3Dnope", { headers });
    await raw(port, "/list/containers?cluster=s3cret-5", { headers });
    child.kill("SIGTERM");
    await once(child, "exit");
    const lines = stderr()
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text))
      .filter((entry) => entry.method);
    expect(lines.map((entry) => [entry.path, entry.status, entry.token])).toEqual([
      ["/detail?token", 401, undefined],
      ["/detail?token&x&%4Bey&db_password", 200, "DOCKLENS_TOKEN"],
      ["/list/containers?cluster&api_key", 400, "DOCKLENS_TOKEN"],
      ["/list/containers?cluster=alpha&filter=name%3Dnope", 200, "DOCKLENS_TOKEN"],
      ["/list/containers?cluster", 404, "DOCKLENS_TOKEN"],
    ]);
    expect(stderr()).not.toMatch(/s3cret|env-t0k3n/);
  });

  it("answers what the HTTP layer cannot read as JSON errors with the usual headers; repeatable parameters are bounded", async () => {
    const { child, line } = await spawnServe([]);
    try {
      const port = Number(/:(\d+)$/.exec(line)![1]);
      const clusters = (count: number, length: number) =>
        Array.from({ length: count }, (_, i) => `cluster=${String(i).padStart(length, "c")}`).join(
          "&",
        );
      // Valid by the OpenAPI document: 70 names of 255 characters is 18 KB of request line.
      const long = await raw(port, `/list/containers?${clusters(70, 255)}`);
      expect([long.status, long.json?.error.code]).toEqual([404, "CLUSTER_NOT_FOUND"]);
      const many = await raw(port, `/list/containers?${clusters(101, 5)}`);
      expect([many.status, many.json?.error]).toEqual([
        400,
        { code: "INVALID_QUERY", message: "cluster: at most 100 values, got 101" },
      ]);
      const filters = Array.from({ length: 21 }, () => "filter=name%3Dx").join("&");
      expect((await raw(port, `/list/containers?${filters}`)).json?.error.message).toBe(
        "filter: at most 20 values, got 21",
      );
      const longFilter = await raw(port, `/list/containers?filter=name%3D${"x".repeat(300)}`);
      expect(longFilter.json?.error.message).toBe("filter: a value is at most 256 characters");
      // Over the server's 128 KiB of request line and headers, and not HTTP at all.
      const sent = [
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${"p".repeat(140_000)}\r\n\r\n`,
        "NOT HTTP AT ALL\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost x\r\n\r\n",
      ];
      for (const request of sent) {
        const answer = await new Promise<string>((resolve, reject) => {
          let text = "";
          const socket = connect(port, "127.0.0.1", () => socket.end(request));
          socket
            .on("data", (chunk: Buffer) => (text += chunk.toString()))
            .on("close", () => resolve(text));
          socket.on("error", reject);
        });
        const [head, body] = answer.split("\r\n\r\n");
        expect(head, request.slice(0, 30)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/);
        expect(head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
        expect(head).toMatch(/\r\nCache-Control: no-store\r\n/);
        expect(JSON.parse(body!).error.code).toBe("INVALID_QUERY");
      }
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("refuses a --host that is no host or IP address, or does not resolve: exit 2, never a wider bind", async () => {
    for (const host of ["not a host", "", "127.0.0.256", "fe80::1%lo"]) {
      const { child, line, stderr } = await spawnServe(["--host", host]);
      // Before it was refused, serve listened on every interface: stop it, and fail.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      if (child.stderr!.readable) await once(child.stderr!, "close");
      expect({ host, line, code: child.exitCode }).toEqual({ host, line: "", code: 2 });
      expect(stderr()).toMatch(/^docklens: --host: /);
    }
    // A name that does not resolve, looked up in a network namespace of its own (`unshare -n`,
    // as root, as the engines are): the query goes nowhere, never to the machine's DNS server.
    const typo = spawnSync(
      "unshare",
      [
        "-n",
        process.execPath,
        BIN,
        "serve",
        "--config",
        engines.configPath,
        "--port",
        "0",
        "--host",
        "127.0.0.l",
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect({ code: typo.status, stdout: typo.stdout }).toEqual({ code: 2, stdout: "" });
    expect(typo.stderr).toMatch(/^docklens: --host: the name does not resolve/);
    const { child, line } = await spawnServe(["--host", "localhost"]);
    try {
      expect(line).toMatch(/^docklens: serving 4 clusters on http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("refuses a --host that is not an address of this machine: exit 2, not listhen's 'no available port'", async () => {
    // Bound on any port for a moment, which sends nothing anywhere.
    const result = await cli([
      "serve",
      "--config",
      engines.configPath,
      "--port",
      "0",
      "--host",
      "10.99.99.99",
    ]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe(
      'docklens: --host: not an address of this machine, got "10.99.99.99"\n',
    );
  });

  it("--cors takes one origin, and * only beside a token; --allowed-host takes host names: else exit 2", async () => {
    // Each refusal is a CLI run of its own: all at once, so that a loaded machine's slow starts
    // do not add up past the test's time limit.
    const serve = (...args: string[]) =>
      cli(["serve", "--config", engines.configPath, "--port", "0", ...args]);
    const corsCases = [
      "*",
      "null",
      "not a url",
      "https://a.example https://b.example",
      "https://a.example/path",
      "ftp://a.example",
      "",
    ];
    const hostCases = ["not a host", "*.example", "https://a.example", ""];
    const [corsResults, hostResults] = await Promise.all([
      Promise.all(corsCases.map((cors) => serve("--cors", cors))),
      Promise.all(hostCases.map((name) => serve("--allowed-host", name))),
    ]);
    corsCases.forEach((cors, i) => {
      const result = corsResults[i]!;
      expect({ cors, code: result.code, stdout: result.stdout }).toEqual({
        cors,
        code: 2,
        stdout: "",
      });
      expect(result.stderr).toMatch(/^docklens: --cors: /);
    });
    expect(corsResults[0]!.stderr).toMatch(/needs a token/);
    hostCases.forEach((name, i) => {
      const result = hostResults[i]!;
      expect({ name, code: result.code }).toEqual({ name, code: 2 });
      expect(result.stderr).toMatch(/^docklens: --allowed-host: expected a host name/);
    });
    // A token makes * acceptable; the origin and the allowed hosts are served as given.
    const starred = await spawnServe(["--cors", "*", "--token", "t0k"]);
    const named = await spawnServe([
      "--cors",
      "https://ops.example:8443",
      "--allowed-host",
      "docklens.test",
      "--allowed-host",
      ".corp.test",
    ]);
    try {
      const port = (line: string) => Number(/:(\d+)$/.exec(line)![1]);
      const star = await raw(port(starred.line), "/healthz");
      expect(star.headers["access-control-allow-origin"]).toBe("*");
      for (const host of ["docklens.test", "a.corp.test:80"]) {
        const answer = await raw(port(named.line), "/list/cluster", { headers: { host } });
        expect({ host, status: answer.status }).toEqual({ host, status: 200 });
        expect(answer.headers["access-control-allow-origin"]).toBe("https://ops.example:8443");
      }
      expect(
        (await raw(port(named.line), "/list/cluster", { headers: { host: "evil.test" } })).status,
      ).toBe(403);
    } finally {
      for (const { child } of [starred, named]) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
  });

  it("refuses a port in use (exit 1: not a usage error) and a bad config (exit 2)", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await cli(["serve", "--config", engines.configPath, "--port", String(port)]);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    } finally {
      busy.close();
    }
    const bad = await cli(["serve", "--config", "/nonexistent.json", "--port", "0"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect((await cli(["serve", "--port", "http"])).code).toBe(2);
  });
});
