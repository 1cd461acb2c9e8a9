import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { certificates } from "../support/certificates.ts";

const examples = join(import.meta.dirname, "../../examples");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-examples-"));
  await certificates(dir, "ca", ["cert"]);
  await writeFile(join(dir, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the example configs", () => {
  it("docklens.config.yaml is valid and means what its comments say", async () => {
    // Its TLS and SSH files are checked when it loads: put real ones where it names them.
    const text = (await readFile(join(examples, "docklens.config.yaml"), "utf8")).replaceAll("/etc/docklens/prod/", `${dir}/`).replace("/home/ops/.ssh/id_ed25519", join(dir, "id_ed25519"));
    await cp(join(dir, "cert.key"), join(dir, "key.pem"));
    await writeFile(join(dir, "docklens.config.yaml"), text);
    const config = await loadConfig({ configPath: join(dir, "docklens.config.yaml") });
    expect(config.clusters.map((c) => [c.id, c.name, c.protocol, c.port, c.timeoutMs])).toEqual([
      [1, "local", "unix", 0, 5000],
      [10, "build", "http", 2375, 2000],
      [3, "prod", "https", 2376, 5000],
      [4, "edge", "ssh", 22, 5000],
    ]);
  });

  it(".docklensrc.json is valid", async () => {
    const config = await loadConfig({ configPath: join(examples, ".docklensrc.json") });
    expect(config.clusters.map((c) => c.name)).toEqual(["local", "lab"]);
  });
});
