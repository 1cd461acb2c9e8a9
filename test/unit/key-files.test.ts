import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/core/config/config.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { checkKeyFiles } from "../../src/core/config/key-files.ts";
import { certificates, encryptKey } from "../support/certificates.ts";

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-keys-"));
  await certificates(dir, "ca", ["client", "other"]);
  await encryptKey(dir, "client");
  await writeFile(at("notes.txt"), "not a certificate\n");
  execFileSync("mkfifo", [at("fifo.pem")]);
  await writeFile(
    at("id_ed25519"),
    "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("checkKeyFiles: the TLS and SSH files of a cluster, checked when the config loads", () => {
  it("accepts a CA, a certificate and its key, and an SSH key", () => {
    expect(
      checkKeyFiles({
        tls: { ca: at("ca.pem"), cert: at("client.pem"), key: at("client.key") },
        ssh: { privateKey: at("id_ed25519") },
      }),
    ).toBeUndefined();
    expect(checkKeyFiles({ tls: { ca: at("ca.pem") } })).toBeUndefined();
    expect(checkKeyFiles({})).toBeUndefined();
  });

  it.each([
    [
      "a missing CA",
      () => ({ tls: { ca: at("nope.pem") } }),
      "tls.ca",
      "cannot read the file (no such file)",
    ],
    [
      "a CA that is a directory",
      () => ({ tls: { ca: dir } }),
      "tls.ca",
      "cannot read the file (is a directory)",
    ],
    [
      // A FIFO would hold the read, and the process, until something writes to it.
      "a CA that is a FIFO",
      () => ({ tls: { ca: at("fifo.pem") } }),
      "tls.ca",
      "cannot read the file (not a regular file)",
    ],
    [
      "a CA that is not PEM",
      () => ({ tls: { ca: at("notes.txt") } }),
      "tls.ca",
      "expected a PEM certificate (-----BEGIN CERTIFICATE-----)",
    ],
    [
      "a key given as the certificate",
      () => ({ tls: { cert: at("client.key") } }),
      "tls.cert",
      "expected a PEM certificate (-----BEGIN CERTIFICATE-----)",
    ],
    [
      "a certificate given as the key",
      () => ({ tls: { key: at("client.pem") } }),
      "tls.key",
      "expected a PEM private key (-----BEGIN ... PRIVATE KEY-----)",
    ],
    [
      "an encrypted key",
      () => ({ tls: { cert: at("client.pem"), key: at("client-encrypted.key") } }),
      "tls.key",
      "the key is encrypted; docklens needs a key without a passphrase",
    ],
    [
      "a key of another certificate",
      () => ({ tls: { cert: at("client.pem"), key: at("other.key") } }),
      "tls.key",
      "the key does not belong to the certificate of tls.cert",
    ],
    [
      "an SSH key that is not a key",
      () => ({ ssh: { privateKey: at("notes.txt") } }),
      "ssh.privateKey",
      "expected a private key file (-----BEGIN ... PRIVATE KEY-----)",
    ],
  ])("reports %s, naming the field and never the contents", (_label, files, field, message) => {
    expect(checkKeyFiles(files())).toEqual({ field, message });
  });

  it("makes a config naming a bad file an INVALID_CONFIG naming the cluster's field", () => {
    const config = {
      clusters: [
        { name: "a", host: "h" },
        { name: "b", host: "h", tls: { ca: at("notes.txt") } },
      ],
    };
    expect(() => normalizeConfig(config, "/x/docklens.json")).toThrow(
      "invalid config /x/docklens.json: clusters[1].tls.ca: expected a PEM certificate (-----BEGIN CERTIFICATE-----)",
    );
  });

  it("reads DOCKER_CERT_PATH as the docker CLI does, and checks its files the same way", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", "/nonexistent");
    const env = {
      HOME: dir,
      DOCKER_HOST: "tcp://127.0.0.1:2376",
      DOCKER_TLS_VERIFY: "1",
      DOCKER_CERT_PATH: dir,
    };
    // Files that are not there are left out, as the docker CLI leaves them out: here only ca.pem is.
    expect((await loadConfig({ cwd: "/", env })).clusters[0]).toMatchObject({
      name: "local",
      protocol: "https",
      tls: { ca: join(dir, "ca.pem") },
    });
    expect((await loadConfig({ cwd: "/", env })).clusters[0]!.tls).toEqual({
      ca: join(dir, "ca.pem"),
    });
    await writeFile(at("cert.pem"), "not a certificate\n");
    await expect(loadConfig({ cwd: "/", env })).rejects.toThrow(
      "DOCKER_CERT_PATH: cert.pem: expected a PEM certificate (-----BEGIN CERTIFICATE-----)",
    );
    await writeFile(at("cert.pem"), await readFile(at("client.pem")));
    await writeFile(at("key.pem"), await readFile(at("client.key")));
    expect((await loadConfig({ cwd: "/", env })).clusters[0]!.tls).toEqual({
      ca: join(dir, "ca.pem"),
      cert: join(dir, "cert.pem"),
      key: join(dir, "key.pem"),
    });
    // DOCKER_TLS: TLS without checking the engine; without DOCKER_CERT_PATH, the docker config dir.
    const loose = await loadConfig({
      cwd: "/",
      env: { HOME: dir, DOCKER_HOST: "tcp://127.0.0.1:2376", DOCKER_TLS: "1", DOCKER_CONFIG: dir },
    });
    expect(loose.clusters[0]).toMatchObject({
      protocol: "https",
      tls: { ca: join(dir, "ca.pem"), insecure: true },
    });
  });
});
