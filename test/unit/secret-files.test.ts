import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readReceiver } from "../../src/core/alerts/receivers.ts";
import { readSecretFile, readSecretFileSync } from "../../src/core/config/file-errors.ts";

/**
 * The files docklens reads secrets from (TLS and SSH keys, a node's token, NATS credentials, an
 * alert receiver's URL): a FIFO would hold the read (a sync one, the whole process) until
 * something writes to it, so it is refused at once; the reasons are the config file's words.
 */
let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-secrets-"));
  await writeFile(at("token"), "s3cret\n");
  execFileSync("mkfifo", [at("fifo")]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("readSecretFile and readSecretFileSync", () => {
  it.each([
    ["a missing file", "missing", "no such file"],
    ["a directory", ".", "is a directory"],
    ["a FIFO", "fifo", "not a regular file"],
  ])("refuse %s, saying why and never the path", async (_label, name, reason) => {
    expect(() => readSecretFileSync(at(name))).toThrow(new Error(reason));
    await expect(readSecretFile(at(name))).rejects.toThrow(new Error(reason));
  });

  it("read a regular file", async () => {
    expect(readSecretFileSync(at("token"))).toBe("s3cret\n");
    expect((await readSecretFile(at("token"))).toString()).toBe("s3cret\n");
  });
});

describe("an alert receiver's URL file", () => {
  it("that is a FIFO is an INVALID_CONFIG at once, not a process held", () => {
    const receiver = { name: "ops", kind: "webhook" as const, target: { file: at("fifo") } };
    expect(() => readReceiver(receiver, {})).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        message: `alerts receiver "ops": cannot read ${at("fifo")} (not a regular file)`,
      }),
    );
  });
});
