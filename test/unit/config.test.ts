import { beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_TIMEOUT_MS } from "../../src/core/config/cluster-config.ts";
import { loadConfig } from "../../src/core/config/config.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";

const cluster = (extra: Record<string, unknown> = {}) => ({ name: "a", host: "h", ...extra });

describe("normalizeConfig", () => {
  it("applies the documented defaults", () => {
    const config = normalizeConfig(
      {
        clusters: [
          cluster(),
          {
            name: "b",
            host: "/run/docker.sock",
            icon: "",
            timeoutMs: 50,
            maxConcurrency: 2,
            cacheTtlMs: 0,
            diskUsageTimeoutMs: 90_000,
          },
          { id: 9, name: "c", host: "h", tls: {} },
        ],
        defaults: { timeoutMs: 900, cacheTtlMs: 250 },
      },
      "/etc/docklens.json",
    );
    expect(config.source).toBe("/etc/docklens.json");
    expect(config.showSecrets).toBe(false);
    expect(config.maxSelection).toBeUndefined();
    expect(normalizeConfig({ clusters: [cluster()], maxSelection: 250 }, null).maxSelection).toBe(
      250,
    );
    expect(config.clusters).toEqual([
      {
        id: 1,
        name: "a",
        icon: "🐳",
        host: "h",
        protocol: "http",
        hostname: "h",
        port: 2375,
        timeoutMs: 900,
        maxConcurrency: 8,
        cacheTtlMs: 250,
        diskUsageTimeoutMs: 60_000,
        source: "config",
      },
      {
        id: 2,
        name: "b",
        icon: "",
        host: "/run/docker.sock",
        protocol: "unix",
        socketPath: "/run/docker.sock",
        port: 0,
        timeoutMs: 50,
        maxConcurrency: 2,
        cacheTtlMs: 0,
        diskUsageTimeoutMs: 90_000,
        source: "config",
      },
      {
        id: 9,
        name: "c",
        icon: "🐳",
        host: "h",
        protocol: "https",
        hostname: "h",
        port: 2376,
        timeoutMs: 900,
        maxConcurrency: 8,
        cacheTtlMs: 250,
        tls: {},
        diskUsageTimeoutMs: 60_000,
        source: "config",
      },
    ]);
    expect(normalizeConfig({ clusters: [cluster()] }, null).clusters[0]!.timeoutMs).toBe(
      DEFAULT_TIMEOUT_MS,
    );
  });

  it.each([
    ["not an object", [], /expected an object with a `clusters` array/],
    ["no clusters", {}, /clusters: /],
    ["clusters not an array", { clusters: {} }, /clusters: expected an array of clusters/],
    ["an empty list", { clusters: [] }, /clusters: expected at least one cluster/],
    [
      "a string port",
      { clusters: [cluster(), cluster({ name: "b", port: "2375" })] },
      /clusters\[1\]\.port: expected an integer/,
    ],
    [
      "a fractional port",
      { clusters: [cluster({ port: 2.5 })] },
      /clusters\[0\]\.port: expected an integer/,
    ],
    [
      "a port out of range",
      { clusters: [cluster({ port: 70000 })] },
      /clusters\[0\]\.port: expected a port from 1 to 65535/,
    ],
    ["a missing name", { clusters: [{ host: "h" }] }, /clusters\[0\]\.name: required/],
    ["a missing host", { clusters: [{ name: "a" }] }, /clusters\[0\]\.host: required/],
    [
      "a digits-only name",
      { clusters: [cluster({ name: "12" })] },
      /clusters\[0\]\.name: must not be made only of digits/,
    ],
    [
      "a name with a slash",
      { clusters: [cluster({ name: "a/b" })] },
      /clusters\[0\]\.name: expected letters/,
    ],
    [
      "a duplicate name",
      { clusters: [cluster(), cluster()] },
      /clusters\[1\]\.name: duplicate name "a"/,
    ],
    [
      "a duplicate id",
      { clusters: [cluster({ id: 2 }), cluster({ name: "b" })] },
      /clusters\[1\]\.id: duplicate id 2/,
    ],
    [
      "a selection bound of 0",
      { clusters: [cluster()], maxSelection: 0 },
      /maxSelection: expected at least 1/,
    ],
    [
      "a selection bound past 10000",
      { clusters: [cluster()], maxSelection: 10_001 },
      /maxSelection: expected at most 10000/,
    ],
    [
      "a zero id",
      { clusters: [cluster({ id: 0 })] },
      /clusters\[0\]\.id: expected a positive integer/,
    ],
    [
      "an unknown key",
      { clusters: [cluster({ hots: "x" })] },
      /clusters\[0\]: unknown key "hots" \(did you mean "host"\?\)$/,
    ],
    [
      "a misspelt key instead of a required one",
      { clusters: [{ name: "a", hots: "x" }] },
      /clusters\[0\]: unknown key "hots" \(did you mean "host"\?\)$/,
    ],
    [
      "a misspelt top-level key",
      { cluster: [cluster()] },
      /: unknown key "cluster" \(did you mean "clusters"\?\)$/,
    ],
    ["an unknown top-level key", { clusters: [cluster()], zzzzzz: [] }, /: unknown key "zzzzzz"$/],
    [
      "a misspelt tls key",
      { clusters: [cluster({ tls: { caa: "x" } })] },
      /clusters\[0\]\.tls: unknown key "caa" \(did you mean "ca"\?\)$/,
    ],
    [
      "a misspelt default",
      { clusters: [cluster()], defaults: { timeout: 5 } },
      /defaults: unknown key "timeout" \(did you mean "timeoutMs"\?\)$/,
    ],
    [
      "a port beside a URL that names another",
      { clusters: [cluster({ host: "tcp://127.0.0.1:23761", port: 2375 })] },
      /clusters\[0\]\.host: the URL names port 23761 but port 2375 is set beside it/,
    ],
    [
      "a bad host",
      { clusters: [cluster({ host: "npipe:////./pipe/x" })] },
      /clusters\[0\]\.host: unsupported engine address/,
    ],
    [
      "a zero timeout",
      { clusters: [cluster({ timeoutMs: 0 })] },
      /clusters\[0\]\.timeoutMs: expected at least 1 ms/,
    ],
    [
      "a bad default timeout",
      { clusters: [cluster()], defaults: { timeoutMs: "5s" } },
      /defaults\.timeoutMs: expected an integer/,
    ],
    [
      "a bad tls block",
      { clusters: [cluster({ tls: { ca: 1 } })] },
      /clusters\[0\]\.tls\.ca: expected a string/,
    ],
    [
      "tls: true, saying what tls takes",
      { clusters: [cluster({ tls: true })] },
      /clusters\[0\]\.tls: expected an object of PEM file paths, \{ ca, cert, key \}, each optional \(\{\} for TLS with the system's CAs\)$/,
    ],
    [
      "a tls block that is a path",
      { clusters: [cluster({ tls: "/certs" })] },
      /clusters\[0\]\.tls: expected an object of PEM file paths/,
    ],
    [
      "a node's TLS file that is not there",
      {
        nodes: [
          {
            name: "edge",
            url: "https://edge:8080",
            token: { env: "T" },
            tls: { ca: "/no/ca.pem" },
          },
        ],
      },
      /nodes\[0\]\.tls\.ca: cannot read the file \(no such file\)$/,
    ],
    [
      "ssh: true, saying what ssh takes",
      { clusters: [cluster({ host: "ssh://h", ssh: true })] },
      /clusters\[0\]\.ssh: expected an object, \{ username, privateKey \}, each optional$/,
    ],
    [
      "a 300-character name, for its length",
      { clusters: [cluster({ name: "a".repeat(300) })] },
      /clusters\[0\]\.name: expected at most 255 characters, not 300$/,
    ],
    [
      "a 300-character token name, for its length",
      {
        clusters: [cluster()],
        tokens: [{ name: "t".repeat(300), sha256: "0".repeat(64), clusters: ["a"] }],
      },
      /tokens\[0\]\.name: expected at most 255 characters, not 300$/,
    ],
    [
      "tokens alone, with neither clusters nor contexts nor discover",
      { tokens: [{ name: "ci", sha256: "0".repeat(64), clusters: ["*"] }] },
      /: clusters: required, unless contexts or discover is true, or nodes or nats are named$/,
    ],
    [
      "a bad showSecrets",
      { clusters: [cluster()], showSecrets: "yes" },
      /showSecrets: expected true or false/,
    ],
    [
      "a zero concurrency",
      { clusters: [cluster({ maxConcurrency: 0 })] },
      /clusters\[0\]\.maxConcurrency: expected at least 1/,
    ],
    [
      "a negative cache time",
      { clusters: [cluster()], defaults: { cacheTtlMs: -1 } },
      /defaults\.cacheTtlMs: expected 0 or more ms/,
    ],
  ])("rejects %s", (_label, input, message) => {
    expect(() => normalizeConfig(input, "/x/docklens.json")).toThrow(message);
    try {
      normalizeConfig(input, "/x/docklens.json");
    } catch (error) {
      expect(error).toMatchObject({
        name: "DocklensError",
        code: "INVALID_CONFIG",
        message: expect.stringMatching(/^invalid config \/x\/docklens\.json: /),
      });
    }
  });
});

describe("normalizeConfig: tokens and discovery", () => {
  const token = (clusters: string[]) => ({ name: "ci", sha256: "0".repeat(64), clusters });
  // A home without docker contexts or Podman: discovery finds only the engine of DOCKER_HOST.
  const env = {
    HOME: "/nonexistent",
    XDG_RUNTIME_DIR: "/nonexistent",
    DOCKER_HOST: "tcp://127.0.0.1:1",
  };

  it("warns of each token glob that matches no cluster, and not of those that do", () => {
    const config = normalizeConfig(
      {
        clusters: [cluster(), cluster({ name: "prod-1" })],
        tokens: [token(["prod-*", "prdo-*", "b?"])],
      },
      "/x/docklens.json",
      env,
    );
    expect(config.warnings).toEqual([
      'token "ci": its clusters glob "prdo-*" matches no cluster',
      'token "ci": its clusters glob "b?" matches no cluster',
    ]);
    expect(config.tokens).toEqual([
      { name: "ci", sha256: "0".repeat(64), clusters: ["prod-*", "prdo-*", "b?"] },
    ]);
  });

  it.each([
    [{ contexts: true }, ["local"]],
    [{ discover: true }, ["local"]],
    [{ contexts: true, discover: true }, ["local"]],
  ])(
    "takes %j and tokens with no clusters: the zero-config clusters, tokens kept",
    (flags, names) => {
      const config = normalizeConfig(
        { ...flags, tokens: [token(["local"])] },
        "/x/docklens.json",
        env,
      );
      expect(config.clusters.map((c) => [c.id, c.name, c.source, c.host])).toEqual(
        names.map((name, index) => [index + 1, name, "default", "tcp://127.0.0.1:1"]),
      );
      expect(config.tokens).toHaveLength(1);
      expect(config.warnings).toEqual([]);
    },
  );

  const edge = { name: "edge", url: "https://edge:8080", token: { env: "T" } };
  it.each([
    [{ nodes: [edge] }, []],
    [{ nats: { servers: ["nats://127.0.0.1:4222"] } }, []],
    [{ nodes: [edge], discover: true }, ["local"]],
    [{ nats: { servers: ["nats://127.0.0.1:4222"] }, contexts: true }, ["local"]],
  ])(
    "takes %j with no clusters as a hub: an engine of its own only when it asks",
    (input, names) => {
      const config = normalizeConfig(input, "/x/docklens.json", env);
      expect(config.clusters.map((c) => c.name)).toEqual(names);
    },
  );
});

describe("loadConfig without a config file", () => {
  // The search ends in ~/.config/docklens, which cosmiconfig finds through process.env.
  beforeEach(() => vi.stubEnv("XDG_CONFIG_HOME", "/nonexistent"));
  // A home without docker contexts, so that only the default engine is found.
  const empty = { cwd: "/", env: { HOME: "/nonexistent" } };

  it("embeds the cluster local on /var/run/docker.sock", async () => {
    const config = await loadConfig(empty);
    expect(config.source).toBeNull();
    expect(config.clusters).toEqual([
      {
        id: 1,
        name: "local",
        icon: "🐳",
        host: "/var/run/docker.sock",
        protocol: "unix",
        socketPath: "/var/run/docker.sock",
        port: 0,
        timeoutMs: DEFAULT_TIMEOUT_MS,
        maxConcurrency: 8,
        cacheTtlMs: 0,
        diskUsageTimeoutMs: 60_000,
        source: "default",
      },
    ]);
  });

  it("embeds the cluster local on DOCKER_HOST (DOCKER_CERT_PATH: key-files.test.ts)", async () => {
    const config = await loadConfig({
      ...empty,
      env: { ...empty.env, DOCKER_HOST: "tcp://127.0.0.1:2376" },
    });
    expect(config.clusters[0]).toMatchObject({
      name: "local",
      host: "tcp://127.0.0.1:2376",
      protocol: "http",
      port: 2376,
    });
  });
});

describe("history (issue 46)", () => {
  const clusters = [{ name: "a", host: "tcp://127.0.0.1:1" }];
  const read = (history: unknown) => normalizeConfig({ clusters, history }, "/x/docklens.json");

  it("is recorded with the defaults unless the config says false", () => {
    expect(normalizeConfig({ clusters }, "/x/docklens.json").history).toBeUndefined();
    expect(read(false).history).toBe(false);
    expect(read(true).history).toEqual({
      maxAgeMs: 7 * 86_400_000,
      maxBytes: 2 * 1024 ** 3,
      statsIntervalMs: 15_000,
      logs: { filter: [], max: 100 },
    });
    expect(
      read({
        path: "/var/lib/docklens/h.sqlite",
        retention: { maxAge: "2d", maxBytes: 1 << 30 },
        statsInterval: "30s",
        logs: { filter: ["label=keep"], max: 5 },
      }).history,
    ).toEqual({
      path: "/var/lib/docklens/h.sqlite",
      maxAgeMs: 2 * 86_400_000,
      maxBytes: 1 << 30,
      statsIntervalMs: 30_000,
      logs: { filter: ["label=keep"], max: 5 },
    });
    expect(read({ logs: false }).history).toMatchObject({ logs: false });
  });

  it.each([
    [{ statsInterval: "soon" }, /history\.statsInterval.*expected a duration/],
    [{ retention: { maxBytes: 10 } }, /history\.retention\.maxBytes.*at least 1048576/],
    [{ logs: { max: 0 } }, /history\.logs.*at least 1/],
    [{ keep: true }, /unknown key "keep"/],
    ["yes", /history.*expected false, true or an object/],
  ])("refuses %j, naming the key", (history, message) => {
    expect(() => read(history)).toThrow(message);
  });
});

describe("metrics (issue 47)", () => {
  const clusters = [{ name: "a", host: "tcp://127.0.0.1:1" }];
  const read = (metrics: unknown) => normalizeConfig({ clusters, metrics }, "/x/docklens.json");

  it("serves per-container series of at most 2000 containers unless the config says otherwise", () => {
    expect(normalizeConfig({ clusters }, "/x/docklens.json").metrics).toBeUndefined();
    expect(read({}).metrics).toEqual({ containers: { max: 2000 } });
    expect(read({ containers: true }).metrics).toEqual({ containers: { max: 2000 } });
    expect(read({ containers: { max: 50 } }).metrics).toEqual({ containers: { max: 50 } });
    expect(read({ containers: false }).metrics).toEqual({ containers: false });
  });

  it.each([
    [{ containers: { max: 0 } }, /metrics\.containers.*at least 1/],
    [{ containers: "all" }, /metrics\.containers.*expected false, true or \{ max \}/],
    [{ container: true }, /unknown key "container" \(did you mean "containers"\?\)/],
    [[], /metrics.*expected an object/],
  ])("refuses %j, naming the key", (metrics, message) => {
    expect(() => read(metrics)).toThrow(message);
  });
});
