import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listContainers } from "../../src/core/containers/containers.ts";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { cli, docker, dockerIds, engines } from "./helpers.ts";
import { tlsEngine } from "./remote-hosts.ts";

const run = promisify(execFile);
let dir: string;
let engine: Awaited<ReturnType<typeof tlsEngine>>;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(engines.tmp, "tls-"));
  engine = await tlsEngine(dir);
  port = engine.port;
});

afterAll(() => engine.close());

/** A config of one cluster `tls` on the TLS server, with the given client key and CA. */
async function config(client: string, ca = "ca"): Promise<string> {
  const path = join(dir, `docklens-${client}.json`);
  const tls = {
    ca: join(dir, `${ca}.pem`),
    cert: join(dir, `${client}.pem`),
    key: join(dir, `${client}.key`),
  };
  await writeFile(
    path,
    JSON.stringify({ clusters: [{ name: "tls", host: "127.0.0.1", port, tls }] }),
  );
  return path;
}

describe("an engine behind mutual TLS (the built CLI)", () => {
  it("lists its containers with the cluster's CA, certificate and key", async () => {
    const result = await cli(["containers", "tls", "--json", "--config", await config("client")]);
    expect(result.stderr).toBe("");
    const ids = (JSON.parse(result.stdout) as { containers: Array<{ Id: string }> }).containers
      .map((c) => c.Id)
      .sort();
    expect(ids).toEqual(await dockerIds(engines.hostB, "ps", "-aq", "--no-trunc"));
  });

  it("details the cluster as TLS with its engine's info, and never a key path", async () => {
    const result = await cli([
      "detail",
      "cluster",
      "tls",
      "--json",
      "--config",
      await config("client"),
    ]);
    const body = JSON.parse(result.stdout) as {
      cluster: Record<string, unknown>;
      docker: { ID: string };
    };
    expect(body.cluster).toMatchObject({ name: "tls", port, tls: true, protocol: "https" });
    expect(body.docker.ID).toBe(await docker(engines.hostB, "info", "--format", "{{.ID}}"));
    expect(result.stdout).not.toContain(dir);
  });

  it("a client certificate the engine does not trust is a TLS failure, exit 1, with no key path", async () => {
    const result = await cli(["containers", "tls", "--config", await config("stranger")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^docklens: cannot reach the engine of cluster "tls" \(https:\/\/127\.0\.0\.1:\d+\): (TLS failure|connection (reset|closed))/,
    );
    expect(result.stderr).not.toContain(dir);
  });

  it("TLS to an engine that speaks plain HTTP says so", async () => {
    const path = join(dir, "docklens-plain.json");
    const { hostname, port: plain } = new URL(engines.hostB);
    await writeFile(
      path,
      JSON.stringify({
        clusters: [{ name: "plain", host: hostname, port: Number(plain), tls: {} }],
      }),
    );
    const result = await cli(["containers", "plain", "--config", path]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `docklens: cannot reach the engine of cluster "plain" (https://${hostname}:${plain}): ` +
        "TLS failure: the engine seems to speak plain HTTP (drop tls, or use tcp:// or http://)\n",
    });
  });

  it("an engine certificate from another CA is a TLS failure", async () => {
    const result = await cli(["containers", "tls", "--config", await config("client", "other-ca")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/TLS failure/);
    expect(result.stderr).not.toContain(dir);
  });
});

describe("a TLS file that changed after the config was checked", () => {
  it.each([
    ["removed", async () => {}, "no such file"],
    // A FIFO would hold the read until something writes to it.
    ["made a FIFO", (path: string) => run("mkfifo", [path]), "not a regular file"],
  ])("%s: the engine's error says so at once, never the path", async (label, change, reason) => {
    const ca = `ca-${label.replace(/\W/g, "-")}`;
    await copyFile(join(dir, "ca.pem"), join(dir, `${ca}.pem`));
    const fleet = await loadFleet({ configPath: await config("client", ca) });
    try {
      await rm(join(dir, `${ca}.pem`));
      await change(join(dir, `${ca}.pem`));
      const error = await listContainers("tls", { fleet }).catch((error: unknown) => error);
      expect(error).toMatchObject({
        code: "ENGINE_UNREACHABLE",
        message:
          `cannot reach the engine of cluster "tls" (https://127.0.0.1:${port}): ` +
          `cannot read its TLS or SSH file (${reason})`,
      });
    } finally {
      fleet.close();
    }
  });
});
