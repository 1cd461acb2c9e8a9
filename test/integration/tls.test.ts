import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { createServer, type Server } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificates } from "../support/certificates.ts";
import { cli, docker, dockerIds, engines } from "./helpers.ts";

/**
 * Engine B behind mutual TLS, as `dockerd --tlsverify` serves it on 2376: a TLS server on
 * loopback that wants a client certificate from its CA and joins each connection to B's socket.
 */
let dir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(engines.tmp, "tls-"));
  await certificates(dir, "ca", ["server", "client"]);
  await certificates(dir, "other-ca", ["stranger"]);
  const file = (name: string) => readFile(join(dir, name));
  server = createServer({ key: await file("server.key"), cert: await file("server.pem"), ca: await file("ca.pem"), requestCert: true, rejectUnauthorized: true }, (socket) => {
    const engine = connect(engines.adminB.replace("unix://", ""));
    socket.pipe(engine).pipe(socket);
    socket.on("error", () => engine.destroy());
    engine.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A config of one cluster `tls` on the TLS server, with the given client key and CA. */
async function config(client: string, ca = "ca"): Promise<string> {
  const path = join(dir, `docklens-${client}.json`);
  const tls = { ca: join(dir, `${ca}.pem`), cert: join(dir, `${client}.pem`), key: join(dir, `${client}.key`) };
  await writeFile(path, JSON.stringify({ clusters: [{ name: "tls", host: "127.0.0.1", port, tls }] }));
  return path;
}

describe("an engine behind mutual TLS (the built CLI)", () => {
  it("lists its containers with the cluster's CA, certificate and key", async () => {
    const result = await cli(["containers", "tls", "--json", "--config", await config("client")]);
    expect(result.stderr).toBe("");
    const ids = (JSON.parse(result.stdout) as { containers: Array<{ Id: string }> }).containers.map((c) => c.Id).sort();
    expect(ids).toEqual(await dockerIds(engines.hostB, "ps", "-aq", "--no-trunc"));
  });

  it("details the cluster as TLS (D2) with its engine's info, and never a key path", async () => {
    const result = await cli(["detail", "cluster", "tls", "--json", "--config", await config("client")]);
    const body = JSON.parse(result.stdout) as { cluster: Record<string, unknown>; docker: { ID: string } };
    expect(body.cluster).toMatchObject({ name: "tls", port, tls: true, protocol: "https" });
    expect(body.docker.ID).toBe(await docker(engines.hostB, "info", "--format", "{{.ID}}"));
    expect(result.stdout).not.toContain(dir);
  });

  it("a client certificate the engine does not trust is a TLS failure, exit 1, with no key path", async () => {
    const result = await cli(["containers", "tls", "--config", await config("stranger")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^docklens: cannot reach the engine of cluster "tls" \(https:\/\/127\.0\.0\.1:\d+\): (TLS failure|connection (reset|closed))/);
    expect(result.stderr).not.toContain(dir);
  });

  it("an engine certificate from another CA is a TLS failure", async () => {
    const result = await cli(["containers", "tls", "--config", await config("client", "other-ca")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/TLS failure/);
    expect(result.stderr).not.toContain(dir);
  });
});
