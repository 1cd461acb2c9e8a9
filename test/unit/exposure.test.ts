import { describe, expect, it } from "vitest";
import { Backlog } from "../../src/core/backlog.ts";
import { createOutputDecoder } from "../../src/core/containers/container-output.ts";
import type { DocklensConfig } from "../../src/core/config/cluster-config.ts";
import { allowedHostProblem, corsProblem, createExposure } from "../../src/server/exposure.ts";
import { loggedTarget } from "../../src/server/request-log.ts";

const config: DocklensConfig = { clusters: [], showSecrets: false, source: null, warnings: [] };
const refuse = createExposure({
  config,
  token: false,
  allowedHosts: ["ops.test", ".corp.test"],
}).refuse!;
const codeOf = (headers: Record<string, string>) => refuse(headers)?.code ?? "answered";

describe("the Host a server without a token answers", () => {
  it.each([
    ["127.0.0.1:8080", "answered"],
    ["127.9.9.9", "answered"],
    ["[::1]:8080", "answered"],
    ["10.1.2.3", "answered"],
    ["localhost", "answered"],
    ["LOCALHOST.:80", "answered"],
    ["dash.localhost:5173", "answered"],
    ["ops.test", "answered"],
    ["corp.test", "answered"],
    ["a.b.corp.test:443", "answered"],
    ["evil.example", "HOST_NOT_ALLOWED"],
    ["localhost.evil.example", "HOST_NOT_ALLOWED"],
    ["xcorp.test", "HOST_NOT_ALLOWED"],
    ["ops.test.evil", "HOST_NOT_ALLOWED"],
    ["127.0.0.1.nip.io", "HOST_NOT_ALLOWED"],
    ["", "HOST_NOT_ALLOWED"],
  ])("%s: %s", (host, code) => {
    expect(codeOf({ host })).toBe(code);
  });

  it("with a token, checks nothing", () => {
    expect(createExposure({ config, token: true }).refuse).toBeUndefined();
  });
});

describe("the site a browser's request comes from, without a token", () => {
  const host = "127.0.0.1:8080";
  it.each([
    [{ "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:8080" }, "answered"],
    [{ "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }, "answered"],
    [{ "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }, "answered"],
    [{ origin: "http://127.0.0.1:8080" }, "answered"],
    [{ "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" }, "ORIGIN_NOT_ALLOWED"],
    [{ "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors" }, "ORIGIN_NOT_ALLOWED"],
    [{ origin: "http://127.0.0.1:9090" }, "ORIGIN_NOT_ALLOWED"],
    [{ origin: "null" }, "ORIGIN_NOT_ALLOWED"],
  ])("%o: %s", (headers, code) => {
    expect(codeOf({ host, ...headers })).toBe(code);
  });

  it("answers the --cors origin", () => {
    const { refuse: corsRefuse } = createExposure({ config, token: false, cors: "https://a.test" });
    const headers = { host, "sec-fetch-site": "cross-site", origin: "https://a.test" };
    expect(corsRefuse!(headers)).toBeUndefined();
    expect(corsRefuse!({ ...headers, origin: "https://b.test" })?.code).toBe("ORIGIN_NOT_ALLOWED");
  });
});

describe("what --cors and --allowed-host take", () => {
  it.each([
    ["https://dash.example.com", false, true],
    ["http://localhost:3000", false, true],
    ["*", true, true],
    ["*", false, false],
    ["null", false, false],
    ["not a url", false, false],
    ["https://a.example https://b.example", true, false],
    ["https://a.example,https://b.example", true, false],
    ["https://a.example/", false, false],
    ["https://a.example/path", false, false],
    ["HTTPS://A.example", false, false],
    ["file:///etc", false, false],
    ["", false, false],
  ])("cors %j with a token %s: %s", (value, token, ok) => {
    expect(corsProblem(value, token) === undefined).toBe(ok);
  });

  it.each([
    ["docklens.example.com", true],
    [".corp.example", true],
    ["localhost", true],
    ["*.corp.example", false],
    ["https://a.example", false],
    ["a b", false],
    ["", false],
  ])("allowed host %j: %s", (value, ok) => {
    expect(allowedHostProblem(value) === undefined).toBe(ok);
  });

  it("a bad one in the config stops the app, naming the file and the entry", () => {
    const bad = { ...config, source: "/etc/docklens.yaml", allowedHosts: ["ok.test", "no way"] };
    expect(() => createExposure({ config: bad, token: false })).toThrow(
      /^\/etc\/docklens\.yaml: allowedHosts\[1\]: expected a host name/,
    );
  });
});

describe("the request log", () => {
  it.each([
    ["/list/cluster?t=abc&mytok=xyz", ["filter"], "/list/cluster?t&mytok"],
    [
      "/list/a/containers?filter=name%3Dweb&t=abc",
      ["filter"],
      "/list/a/containers?filter=name%3Dweb&t",
    ],
    ["/logs?api_key=abc&cluster=a", ["cluster", "api_key"], "/logs?api_key&cluster=a"],
    ["/x?%zz=1", ["%zz"], "/x?%zz"],
  ])("%s writes %s", (target, declared, logged) => {
    expect(loggedTarget(target, new Set(declared))).toBe(logged);
  });

  it("writes no value of a refused request", () => {
    expect(loggedTarget("/logs?cluster=a", undefined)).toBe("/logs?cluster");
  });
});

describe("bounds in bytes", () => {
  it("a line without a newline comes in pieces of the longest length, each with its time", () => {
    const decoder = createOutputDecoder({
      multiplexed: false,
      timestamps: true,
      maxLineLength: 4,
    });
    const stamp = "2026-01-01T00:00:00.000000001Z ";
    expect(decoder.push(Buffer.from(`${stamp}abcdefghij`))).toEqual([
      { stream: "stdout", time: stamp.trim(), text: "abcd" },
      { stream: "stdout", time: stamp.trim(), text: "efgh" },
    ]);
    expect(decoder.push(Buffer.from("k\n"))).toEqual([
      { stream: "stdout", time: stamp.trim(), text: "ijk" },
    ]);
    // Never between the halves of a character outside the BMP.
    const plain = createOutputDecoder({ multiplexed: false, timestamps: false, maxLineLength: 4 });
    expect(plain.push(Buffer.from("abc😀def\n")).map((line) => line.text)).toEqual([
      "abc",
      "😀de",
      "f",
    ]);
  });

  it("a backlog counts items up to a count and up to a number of bytes, whichever comes first", () => {
    const backlog = new Backlog({ items: 3, bytes: 10 });
    expect([backlog.add(4), backlog.add(4), backlog.add(3)]).toEqual([true, true, false]);
    expect([backlog.items, backlog.bytes]).toEqual([2, 8]);
    backlog.remove(4);
    expect([backlog.add(2), backlog.add(1), backlog.add(0)]).toEqual([true, true, false]);
    expect(backlog.tooSlow("follow again").message).toBe(
      "this client fell 3 items or 10 bytes behind; follow again",
    );
    expect(backlog.tooSlow("x").code).toBe("CLIENT_TOO_SLOW");
    expect(new Backlog({ items: 1 }).tooSlow("x").message).toMatch(/1 items or 16 MiB behind/);
    expect(new Backlog({ bytes: 4 << 20 }).tooSlow("follow again").message).toBe(
      "this client fell 4 MiB behind; follow again",
    );
  });
});
