import { spawn, type ChildProcess, execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { copyFile, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptKey } from "../support/certificates.ts";
import { cli, docker, dockerIds, engines } from "./helpers.ts";
import { sshHost, sshKeyPair, tlsEngine } from "./remote-hosts.ts";

/**
 * Zero config means every engine the machine already knows: a docker CLI context store written
 * here as the docker CLI writes it (a unix, a TCP, a TLS and an SSH context, and broken ones),
 * and a Podman socket where Podman puts it, with HOME, DOCKER_CONFIG and XDG_RUNTIME_DIR
 * pointed at this test's directory.
 */
let home: string;
let env: Record<string, string>;
let tls: Awaited<ReturnType<typeof tlsEngine>>;
let ssh: Awaited<ReturnType<typeof sshHost>>;
let agent: ChildProcess;

/** Write a context as `docker context create` does: meta.json, and TLS files beside it. */
async function context(
  name: string,
  host: string,
  files: Record<string, string> = {},
): Promise<void> {
  const digest = createHash("sha256").update(name).digest("hex");
  const meta = join(home, ".docker", "contexts", "meta", digest);
  await mkdir(meta, { recursive: true });
  await writeFile(
    join(meta, "meta.json"),
    JSON.stringify({
      Name: name,
      Metadata: { Description: "" },
      Endpoints: { docker: { Host: host, SkipTLSVerify: false } },
    }),
  );
  const tlsDir = join(home, ".docker", "contexts", "tls", digest, "docker");
  if (Object.keys(files).length) await mkdir(tlsDir, { recursive: true });
  for (const [file, from] of Object.entries(files)) await copyFile(from, join(tlsDir, file));
}

beforeAll(async () => {
  home = await mkdtemp(join(engines.tmp, "home-"));
  const certs = await mkdtemp(join(engines.tmp, "ctx-tls-"));
  tls = await tlsEngine(certs);
  await encryptKey(certs, "client");
  // SSH as the docker CLI does it: the user's agent holds the key.
  const key = sshKeyPair();
  ssh = await sshHost({ refuse: false, clientPublicKey: key.public });
  const keyFile = join(home, "id_ed25519");
  await writeFile(keyFile, key.private, { mode: 0o600 });
  const agentSocket = join(home, "agent.sock");
  agent = spawn("ssh-agent", ["-D", "-a", agentSocket], { stdio: "ignore" });
  for (
    let i = 0;
    i < 50 &&
    (await promisify(execFile)("test", ["-S", agentSocket]).then(
      () => false,
      () => true,
    ));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  await promisify(execFile)("ssh-add", [keyFile], { env: { SSH_AUTH_SOCK: agentSocket } });
  // Podman's user socket, where discovery looks for it.
  await mkdir(join(home, "run", "podman"), { recursive: true });
  await symlink(engines.hostP.replace("unix://", ""), join(home, "run", "podman", "podman.sock"));

  const tlsFiles = (key: string) => ({
    "ca.pem": join(certs, "ca.pem"),
    "cert.pem": join(certs, "client.pem"),
    "key.pem": join(certs, key),
  });
  await context("alpha-ctx", engines.hostA);
  await context("bravo-tcp", engines.hostB);
  await context("bravo-tls", `tcp://127.0.0.1:${tls.port}`, tlsFiles("client.key"));
  await context("bravo-ssh", `ssh://docklens@127.0.0.1:${ssh.port}`);
  await context("bravo-localhost", engines.hostB.replace("127.0.0.1", "localhost"));
  await context("windows", "npipe:////./pipe/docker_engine");
  await context("locked", `tcp://127.0.0.1:${tls.port}`, tlsFiles("client-encrypted.key"));
  await context("with+plus", engines.hostA);
  await writeFile(
    join(home, ".docker", "config.json"),
    JSON.stringify({ currentContext: "alpha-ctx" }),
  );
  env = { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), SSH_AUTH_SOCK: agentSocket };
});

afterAll(async () => {
  agent.kill();
  await once(agent, "exit").catch(() => undefined);
  ssh.close();
  await tls.close();
});

type Cluster = {
  id: number;
  name: string;
  source: string;
  error?: { message: string };
  docker: { ID?: string };
};
const clustersOf = async (extra: Record<string, string> = {}) => {
  const result = await cli(["clusters", "--json"], { env: { ...env, ...extra } });
  return { result, clusters: (JSON.parse(result.stdout) as { clusters: Cluster[] }).clusters };
};
const engineId = (host: string) => docker(host, "info", "-f", "{{.ID}}");

describe("zero config: every engine this machine knows", () => {
  it("local is the current context, then every other context by name, then podman, all live", async () => {
    const { result, clusters } = await clustersOf();
    expect(clusters.map((c) => [c.id, c.name, c.source])).toEqual([
      [1, "local", "context"],
      [2, "bravo-localhost", "context"],
      [3, "bravo-ssh", "context"],
      [4, "bravo-tcp", "context"],
      [5, "bravo-tls", "context"],
      [6, "podman", "discovered"],
    ]);
    for (const cluster of clusters) expect(cluster.error, cluster.name).toBeUndefined();
    expect(clusters[0]!.docker.ID).toBe(await engineId(engines.hostA));
    for (const cluster of clusters.slice(1, 5))
      expect(cluster.docker.ID, cluster.name).toBe(await engineId(engines.adminB));
    // One warning line per context docklens cannot use, naming it and why.
    expect(result.stderr.trim().split("\n").sort()).toEqual([
      'docklens: warning: docker context "locked" skipped: its key.pem: the key is encrypted; docklens needs a key without a passphrase',
      `docklens: warning: docker context "windows" skipped: npipe hosts are Windows named pipes, which docklens cannot reach`,
      `docklens: warning: docker context "with+plus" skipped: a name docklens cannot take (letters, digits, '_', '.' or '-', and not only digits)`,
    ]);
  });

  it("warns of a broken context only where it is used or listed", async () => {
    // A command on one cluster says nothing of contexts it does not use.
    for (const args of [
      ["containers", "local", "--json"],
      ["detail", "cluster", "bravo-tcp", "--json"],
      ["ps", "local"],
    ]) {
      const result = await cli(args, { env });
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stderr, args.join(" ")).toBe("");
    }
    // Naming a skipped context says why it is not a cluster.
    const named = await cli(["containers", "windows"], { env });
    expect(named.code).not.toBe(0);
    expect(named.stderr).toMatch(
      /^docklens: cluster "windows" not found: docker context "windows" skipped: npipe hosts are Windows named pipes, which docklens cannot reach \(known: .*\)\n$/,
    );
    // Every cluster (ps alone), the clusters and the config: the warnings.
    for (const args of [["ps"], ["config"], ["clusters"]]) {
      const result = await cli(args, { env });
      expect(result.stderr, args.join(" ")).toMatch(
        /^docklens: warning: docker context "windows" skipped: /m,
      );
    }
  });

  it("every command works on a context's cluster: containers over TLS and over SSH", async () => {
    for (const name of ["bravo-tls", "bravo-ssh", "bravo-tcp"]) {
      const result = await cli(["containers", name, "--json"], { env });
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect(
        JSON.parse(result.stdout)
          .containers.map((c: { Id: string }) => c.Id)
          .sort(),
      ).toEqual(await dockerIds(engines.adminB, "ps", "-aq", "--no-trunc"));
    }
    expect((await cli(["logs", "podman", "p-web", "-n", "1"], { env })).stdout).toMatch(
      /^(out \d+|\[stderr\] err \d+)\n$/,
    );
  });

  it("DOCKER_HOST wins, then DOCKER_CONTEXT, as the docker CLI has it", async () => {
    const byHost = await clustersOf({ DOCKER_HOST: engines.hostB });
    expect(byHost.clusters.map((c) => [c.name, c.source])).toEqual([
      ["local", "default"],
      ["alpha-ctx", "context"],
      ["bravo-localhost", "context"],
      ["bravo-ssh", "context"],
      ["bravo-tcp", "context"],
      ["bravo-tls", "context"],
      ["podman", "discovered"],
    ]);
    expect(byHost.clusters[0]!.docker.ID).toBe(await engineId(engines.adminB));
    const byContext = await clustersOf({ DOCKER_CONTEXT: "bravo-tls" });
    expect(byContext.clusters.map((c) => c.name)).toEqual([
      "local",
      "alpha-ctx",
      "bravo-localhost",
      "bravo-ssh",
      "bravo-tcp",
      "podman",
    ]);
    const detail = JSON.parse(
      (
        await cli(["detail", "cluster", "local", "--json"], {
          env: { ...env, DOCKER_CONTEXT: "bravo-tls" },
        })
      ).stdout,
    );
    expect(detail.cluster).toMatchObject({
      name: "local",
      source: "context",
      context: "bravo-tls",
      tls: true,
      protocol: "https",
    });
    expect(JSON.stringify(detail)).not.toMatch(/\.pem|PRIVATE/);
    const missing = await cli(["clusters"], { env: { ...env, DOCKER_CONTEXT: "nope" } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /DOCKER_CONTEXT names the docker context "nope", which does not exist/,
    );
  });

  it("with no context store, local is the default socket's engine or DOCKER_HOST's", async () => {
    const bare = await mkdtemp(join(engines.tmp, "bare-home-"));
    const result = await cli(["clusters", "--json"], {
      env: { HOME: bare, DOCKER_HOST: engines.hostA },
    });
    expect(JSON.parse(result.stdout).clusters.map((c: Cluster) => [c.name, c.source])).toEqual([
      ["local", "default"],
    ]);
    expect(result.stderr).toBe("");
  });

  it("docklens config says why no file was used and where each cluster came from", async () => {
    const table = await cli(["config"], { env });
    expect(table.stdout).toMatch(/^Config\s+none: no config file from /);
    expect(table.stdout).toMatch(/^3\s+bravo-ssh\s+ssh:\/\/127\.0\.0\.1:\d+\s+context bravo-ssh$/m);
    expect(table.stdout).toMatch(/^6\s+podman\s+unix:\/\/.*podman\.sock\s+discovered$/m);
    const body = JSON.parse((await cli(["config", "--json"], { env })).stdout);
    expect(body).toMatchObject({
      file: null,
      reason: expect.any(String),
      warnings: expect.arrayContaining([expect.stringMatching(/"windows"/)]),
    });
    expect(body.clusters[0]).toMatchObject({
      id: 1,
      name: "local",
      source: "context",
      context: "alpha-ctx",
    });
  });
});

describe("a config file with contexts: true and discover: true", () => {
  it("adds every context and podman after its own clusters, its own names winning", async () => {
    const dir = await mkdtemp(join(engines.tmp, "ctx-config-"));
    const file = join(dir, "docklens.json");
    await writeFile(
      file,
      JSON.stringify({
        contexts: true,
        discover: true,
        clusters: [{ id: 5, name: "bravo-tcp", host: engines.hostA }],
      }),
    );
    const result = await cli(["config", "--json", "--config", file], { env });
    const body = JSON.parse(result.stdout);
    expect(body.file).toBe(file);
    expect(body.clusters.map((c: Cluster) => [c.id, c.name, c.source])).toEqual([
      [5, "bravo-tcp", "config"],
      [6, "alpha-ctx", "context"],
      [7, "bravo-localhost", "context"],
      [8, "bravo-ssh", "context"],
      [9, "bravo-tls", "context"],
      [10, "podman", "discovered"],
    ]);
  });
});
