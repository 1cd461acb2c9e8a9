import { describe, expect, it } from "vitest";
import { describeEndpoint, endpointHost, parseEndpoint } from "../../src/core/config/endpoint.ts";

describe("parseEndpoint", () => {
  it.each([
    [
      "/var/run/docker.sock",
      undefined,
      false,
      { protocol: "unix", socketPath: "/var/run/docker.sock", port: 0 },
    ],
    [
      "unix:///var/run/docker.sock",
      undefined,
      false,
      { protocol: "unix", socketPath: "/var/run/docker.sock", port: 0 },
    ],
    ["10.0.0.5", undefined, false, { protocol: "http", hostname: "10.0.0.5", port: 2375 }],
    [
      "engine.example",
      undefined,
      true,
      { protocol: "https", hostname: "engine.example", port: 2376 },
    ],
    ["engine.example", 4243, false, { protocol: "http", hostname: "engine.example", port: 4243 }],
    ["::1", undefined, false, { protocol: "http", hostname: "::1", port: 2375 }],
    ["[::1]", undefined, false, { protocol: "http", hostname: "::1", port: 2375 }],
    [
      "tcp://127.0.0.1:2999",
      undefined,
      false,
      { protocol: "http", hostname: "127.0.0.1", port: 2999 },
    ],
    ["tcp://127.0.0.1:2999", 2999, false, { protocol: "http", hostname: "127.0.0.1", port: 2999 }],
    ["tcp://127.0.0.1", 1234, false, { protocol: "http", hostname: "127.0.0.1", port: 1234 }],
    ["tcp://127.0.0.1", undefined, true, { protocol: "https", hostname: "127.0.0.1", port: 2376 }],
    ["https://h", undefined, false, { protocol: "https", hostname: "h", port: 2376 }],
    [
      "ssh://ops@h",
      undefined,
      false,
      { protocol: "ssh", hostname: "h", port: 22, username: "ops" },
    ],
    ["ssh://h:2222", undefined, false, { protocol: "ssh", hostname: "h", port: 2222 }],
    // No scheme is tcp://, as the docker CLI's opts.ParseHost has it (DOCKER_HOST=host:port).
    ["127.0.0.1:31375", undefined, false, { protocol: "http", hostname: "127.0.0.1", port: 31375 }],
    ["127.0.0.1:31375", undefined, true, { protocol: "https", hostname: "127.0.0.1", port: 31375 }],
    ["127.0.0.1:31375", 31375, false, { protocol: "http", hostname: "127.0.0.1", port: 31375 }],
    ["db:2375", undefined, false, { protocol: "http", hostname: "db", port: 2375 }],
    ["cafe:4243", undefined, false, { protocol: "http", hostname: "cafe", port: 4243 }],
    [":31375", undefined, false, { protocol: "http", hostname: "localhost", port: 31375 }],
    ["[::1]:31375", undefined, false, { protocol: "http", hostname: "::1", port: 31375 }],
    ["fe80::1", undefined, false, { protocol: "http", hostname: "fe80::1", port: 2375 }],
    ["tcp://:31375", undefined, false, { protocol: "http", hostname: "localhost", port: 31375 }],
    ["tcp://", undefined, false, { protocol: "http", hostname: "localhost", port: 2375 }],
  ] as const)("%s (port %s, tls %s)", (host, port, tls, expected) => {
    expect(parseEndpoint(host, port, tls)).toEqual(expected);
  });

  it.each([
    ["unix://relative.sock", /absolute socket path/],
    ["npipe:////./pipe/docker_engine", /unsupported engine address/],
    ["tcp://h:2375/path", /unsupported engine address/],
    ["not a host", /expected a host name/],
    ["ftp://h", /unsupported engine address/],
    ["host:abc", /expected a host name/],
    ["127.0.0.1:31375/path", /unsupported engine address/],
  ])("rejects %s", (host, message) => {
    expect(() => parseEndpoint(host)).toThrow(message);
  });

  it.each([
    ["tcp://127.0.0.1:23761", 1234, /names port 23761 but port 1234 is set beside it/],
    ["127.0.0.1:23761", 1234, /names port 23761 but port 1234 is set beside it/],
    ["ssh://h:2222", 22, /names port 2222 but port 22/],
    ["/var/run/docker.sock", 2375, /a socket path takes no port/],
    ["unix:///var/run/docker.sock", 2375, /a socket path takes no port/],
  ] as const)("rejects %s with port %s: never silently one of the two", (host, port, message) => {
    expect(() => parseEndpoint(host, port)).toThrow(message);
  });

  it.each([
    ["tcp://127.0.0.1:23761", "127.0.0.1"],
    ["unix:///run/docker.sock", "/run/docker.sock"],
    ["/run/docker.sock", "/run/docker.sock"],
    ["ssh://ops@[::1]:22", "::1"],
    ["engine.example", "engine.example"],
  ])("shows %s as host %s in cluster records", (host, shown) => {
    expect(endpointHost(parseEndpoint(host))).toBe(shown);
  });

  it.each([
    [{ protocol: "unix", socketPath: "/s.sock", port: 0 }, "unix:///s.sock"],
    [{ protocol: "http", hostname: "h", port: 2375 }, "http://h:2375"],
    [{ protocol: "ssh", hostname: "::1", port: 22, username: "u" }, "ssh://u@[::1]:22"],
  ] as const)("describes %j as %s", (endpoint, text) => {
    expect(describeEndpoint(endpoint)).toBe(text);
  });
});
