import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { certificates } from "../support/certificates.ts";
import { alphaAndBravo, BIN, cli, engines, spawnServe, writeConfig } from "./helpers.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

/** Exposing serve safely: tokens that see only some clusters, on every route; HTTPS. */
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
let dir: string;
let config: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(engines.tmp, "exposing-"));
  const dead = { name: "dead", host: "127.0.0.1", port: 1, timeoutMs: 1000 };
  const tokens = [
    { name: "team-a", sha256: sha256("team-a-secret"), clusters: ["alp*"] },
    { name: "ops", env: "DOCKLENS_TEST_OPS_TOKEN", clusters: ["*"] },
  ];
  config = await writeConfig(
    "docklens.json",
    { clusters: [...alphaAndBravo(), dead], tokens },
    dir,
  );
  process.env.DOCKLENS_TEST_OPS_TOKEN = "ops-secret";
  server = await startServer({
    fleet: await loadFleet({ configPath: config }),
    token: "root-secret",
  });
});
afterAll(async () => {
  delete process.env.DOCKLENS_TEST_OPS_TOKEN;
  await server.close();
});

const as = (token: string, path: string) =>
  raw(server.port, path, { headers: { authorization: `Bearer ${token}` } });

describe("tokens per cluster", () => {
  it("a scoped token sees only its clusters, on every route, and others exactly as unknown ones", async () => {
    expect(
      (await as("team-a-secret", "/list/cluster")).json.clusters.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(["alpha"]);
    for (const [hidden, unknown] of [
      ["/list/bravo/containers", "/list/nope/containers"],
      ["/list/7/volumes", "/list/99/volumes"],
      ["/detail/cluster/bravo", "/detail/cluster/nope"],
      ["/detail/bravo/container/b-one", "/detail/nope/container/b-one"],
      ["/detail/bravo/container/b-one/logs", "/detail/nope/container/b-one/logs"],
      ["/list/containers?cluster=bravo", "/list/containers?cluster=nope"],
      ["/list/bravo/df", "/list/nope/df"],
      ["/list/df?cluster=bravo", "/list/df?cluster=nope"],
      ["/logs?cluster=bravo", "/logs?cluster=nope"],
      ["/stats?cluster=bravo", "/stats?cluster=nope"],
    ]) {
      const [a, b] = await Promise.all([
        as("team-a-secret", hidden!),
        as("team-a-secret", unknown!),
      ]);
      expect(a.status, hidden).toBe(404);
      expect(a.json.error.code).toBe("CLUSTER_NOT_FOUND");
      // The same words, but for the name asked: nothing tells that bravo exists.
      expect(a.json.error.message.replace(/bravo|7/, "X")).toBe(
        b.json.error.message.replace(/nope|99/, "X"),
      );
      expect(a.json.error.message).toMatch(/\(known: 1 alpha\)$/);
    }
    const everywhere = (await as("team-a-secret", "/list/containers")).json;
    expect(
      new Set(everywhere.containers.map((c: { cluster: { name: string } }) => c.cluster.name)),
    ).toEqual(new Set(["alpha"]));
    expect(everywhere.errors).toEqual([]);
    expect(
      (await as("team-a-secret", "/list/drift")).json.engines.map(
        (e: { cluster: { name: string } }) => e.cluster.name,
      ),
    ).toEqual(["alpha"]);
    expect((await as("team-a-secret", "/list/alpha/containers")).status).toBe(200);
    // The routes over many containers and clusters see only its clusters too.
    const [df, stats, logs] = await Promise.all(
      ["/list/df", "/stats", "/logs?tail=1"].map(
        async (path) => (await as("team-a-secret", path)).json,
      ),
    );
    const names = (items: Array<{ cluster: { name: string } }>) =>
      new Set(items.map((item) => item.cluster.name));
    expect([names(df.clusters), names(stats.stats), names(logs.lines)]).toEqual([
      new Set(["alpha"]),
      new Set(["alpha"]),
      new Set(["alpha"]),
    ]);
    expect([df.errors, stats.errors, logs.errors]).toEqual([[], [], []]);
  });

  it("--token and a token from the environment see every cluster; anything else is 401", async () => {
    for (const token of ["root-secret", "ops-secret"]) {
      expect(
        (await as(token, "/list/cluster")).json.clusters.map((c: { name: string }) => c.name),
      ).toEqual(["alpha", "bravo", "dead"]);
    }
    for (const token of ["team-a-secre", "nope", sha256("team-a-secret")])
      expect((await as(token, "/list/cluster")).status).toBe(401);
    expect((await raw(server.port, "/list/cluster")).status).toBe(401);
    expect((await raw(server.port, "/healthz")).status).toBe(200);
  });

  it("the request log names the token, never its value", async () => {
    await as("team-a-secret", "/detail");
    await as("root-secret", "/detail");
    expect(server.logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/detail 200 \d+ms token=team-a$/),
        expect.stringMatching(/^GET \/detail 200 \d+ms token=--token$/),
      ]),
    );
    expect(server.logs.join("\n")).not.toMatch(/secret/);
  });

  it("docklens token hash prints the SHA-256 the config takes", async () => {
    const child = spawn(process.execPath, [BIN, "token", "hash"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stdin.end("team-a-secret\n");
    expect((await once(child, "exit"))[0]).toBe(0);
    expect(stdout).toBe(`${sha256("team-a-secret")}\n`);
  });

  it("a token entry that is not sound is a config error; serve refuses to start without its variable", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(
      bad,
      JSON.stringify({
        clusters: [{ name: "a", host: engines.hostA }],
        tokens: [{ name: "t", sha256: sha256("x"), env: "X", clusters: ["a"] }],
      }),
    );
    const both = await cli(["clusters", "--config", bad]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /tokens\[0\]: expected either sha256 or env, not both and not neither/,
    );
    const unset = await cli(["serve", "--port", "0", "--config", config]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe(
      'docklens: token "ops": the environment variable DOCKLENS_TEST_OPS_TOKEN is not set\n',
    );
  });
});

describe("HTTPS", () => {
  it("serve --tls-cert --tls-key serves HTTPS, which a client trusting the CA reads", async () => {
    const certs = await mkdtemp(join(engines.tmp, "https-"));
    await certificates(certs, "ca", ["server"]);
    const { child, line } = await spawnServe([
      "--json",
      "--token",
      "t0k3n",
      "--tls-cert",
      join(certs, "server.pem"),
      "--tls-key",
      join(certs, "server.key"),
    ]);
    try {
      const { url } = JSON.parse(line) as { url: string };
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = await readFile(join(certs, "ca.pem"));
      const body = await new Promise<string>((resolve, reject) => {
        request(
          `${url}/list/cluster`,
          { ca, headers: { authorization: "Bearer t0k3n" } },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk)).on("end", () => resolve(text));
          },
        )
          .on("error", reject)
          .end();
      });
      expect(JSON.parse(body).clusters.map((c: { name: string }) => c.name)).toEqual([
        "alpha",
        "bravo",
        "dead",
        "hang",
      ]);
      // Plain HTTP on the same port is not served.
      const plain = await fetch(url.replace("https:", "http:") + "/healthz").then(
        (r) => r.status,
        () => "refused",
      );
      expect(plain).not.toBe(200);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("a certificate without its key, or a key of another certificate, does not start", async () => {
    const certs = await mkdtemp(join(engines.tmp, "https-bad-"));
    await certificates(certs, "ca", ["server", "other"]);
    const alone = await cli([
      "serve",
      "--port",
      "0",
      "--config",
      engines.configPath,
      "--tls-cert",
      join(certs, "server.pem"),
    ]);
    expect(alone).toMatchObject({
      code: 2,
      stderr: "docklens: --tls-cert and --tls-key go together: give both, or neither\n",
    });
    const mismatch = await cli([
      "serve",
      "--port",
      "0",
      "--config",
      engines.configPath,
      "--tls-cert",
      join(certs, "server.pem"),
      "--tls-key",
      join(certs, "other.key"),
    ]);
    expect(mismatch).toMatchObject({
      code: 2,
      stderr: "docklens: --tls-key: the key does not belong to the certificate of --tls-cert\n",
    });
  });
});
