import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { discoverClusters, discoverMore } from "../../src/core/config/discovery.ts";

/** A home with a docker context store (contexts written as the docker CLI writes them) and a Podman socket. */
let home: string;
const env = () => ({ HOME: home, XDG_RUNTIME_DIR: join(home, "run") });

async function context(name: string, host: string): Promise<void> {
  const dir = join(
    home,
    ".docker",
    "contexts",
    "meta",
    createHash("sha256").update(name).digest("hex"),
  );
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "meta.json"),
    JSON.stringify({ Name: name, Endpoints: { docker: { Host: host } } }),
  );
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "docklens-discovery-"));
  await mkdir(join(home, "run", "podman"), { recursive: true });
  await writeFile(join(home, "run", "podman", "podman.sock"), "");
  await context("podman", `unix://${join(home, "run", "podman", "podman.sock")}`);
  await context("local", "tcp://127.0.0.1:2375");
  await context("edge", "ssh://ops@127.0.0.1");
  // The same Podman socket through a link (podman-docker links the docker socket so).
  await symlink(join(home, "run", "podman", "podman.sock"), join(home, "docker.sock"));
  await context("pod-alias", `unix://${join(home, "docker.sock")}`);
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe("discovery", () => {
  it("with no config file: contexts named as docklens's own clusters are skipped, saying so; Podman is found once", () => {
    const found = discoverClusters(env());
    expect(found.clusters.map((c) => [c.id, c.name, c.source])).toEqual([
      [1, "local", "default"],
      [2, "edge", "context"],
      [3, "pod-alias", "context"],
    ]);
    expect(found.warnings.sort()).toEqual([
      'docker context "local" skipped: with no config file, docklens names a cluster so itself',
      'docker context "podman" skipped: with no config file, docklens names a cluster so itself',
    ]);
  });

  it("with no other contexts asked for (a config file without clusters): local alone, and Podman if asked", () => {
    expect(discoverClusters(env(), { contexts: false, discover: false })).toEqual({
      clusters: [expect.objectContaining({ id: 1, name: "local" })],
      warnings: [],
      skipped: [],
    });
    expect(
      discoverClusters(env(), { contexts: false, discover: true }).clusters.map((c) => c.name),
    ).toEqual(["local", "podman"]);
  });

  it("a config file's defaults tune the clusters it finds too", () => {
    const config = normalizeConfig(
      { clusters: [{ name: "own", host: "h" }], contexts: true, defaults: { timeoutMs: 900 } },
      "/x/docklens.json",
      env(),
    );
    expect(config.clusters.map((c) => [c.name, c.timeoutMs])).toEqual([
      ["own", 900],
      ["edge", 900],
      ["local", 900],
      ["pod-alias", 900],
      ["podman", 900],
    ]);
  });

  it("beside a config file: a context named podman is that engine, not found twice", () => {
    const found = discoverMore(env(), [], { contexts: true, discover: true });
    expect(found.clusters.map((c) => [c.name, c.source])).toEqual([
      ["edge", "context"],
      ["local", "context"],
      ["pod-alias", "context"],
      ["podman", "context"],
    ]);
  });
});
