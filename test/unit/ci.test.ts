import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };

/** `npm test` on a fresh machine, and CI: what they install and the Node versions they run on. */
const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);

describe("npm test on a fresh machine", () => {
  let bin: string;
  beforeAll(async () => {
    // A machine without the tests' packages, and a user who is not root.
    bin = await mkdtemp(join(tmpdir(), "docklens-fresh-"));
    await writeFile(join(bin, "id"), "#!/bin/sh\necho 1000\n", { mode: 0o755 });
    for (const tool of ["dirname", "basename"])
      await symlink((await run("sh", ["-c", `command -v ${tool}`])).stdout.trim(), join(bin, tool));
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  it("installs what the tests need before anything else", () => {
    expect(pkg.scripts.pretest).toMatch(/^bash scripts\/test-deps\.sh && /);
  });

  it("tells a user who is not root which packages to install, and does not start", async () => {
    const failed = await run("/bin/bash", [join(root, "scripts/test-deps.sh")], {
      env: { PATH: bin },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^test-deps\.sh: missing Debian packages: docker\.io procps openssl jq curl podman prometheus prometheus-alertmanager nats-server chromium(?: fonts-noto-color-emoji)?\. As root: bash scripts\/test-deps\.sh/,
      ),
    });
  });
});

describe("CI", () => {
  it("runs the suite on Node 22, 24 and 26 besides the machine's, and CONTRIBUTING.md says so", async () => {
    const ci = await readFile(join(root, ".ci/run"), "utf8");
    expect(/^for version in ([\d ]+); do$/m.exec(ci)?.[1]).toBe("22 24 26");
    const contributing = await readFile(join(root, "CONTRIBUTING.md"), "utf8");
    expect(contributing).toContain("then the same suite on Node 22, 24 and 26");
  });

  it("keeps Node 20 among the versions docklens runs on while it still works", () => {
    expect(pkg.engines.node).toBe(">=20.19");
  });
});
