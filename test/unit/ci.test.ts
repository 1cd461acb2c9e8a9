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
  it("runs the suite on Node 22, 24 and 26, the README's commands on the same Node as its first run", async () => {
    const ci = await readFile(join(root, ".ci/run"), "utf8");
    const first = /^PATH=\$\(bash scripts\/node\.sh (\d+)\):\$PATH$/m.exec(ci)?.[1];
    const others = /^for version in ([\d ]+); do$/m.exec(ci)?.[1]?.split(" ");
    expect([first, ...(others ?? [])].sort()).toEqual(["22", "24", "26"]);
    const readme = await readFile(join(root, "README.md"), "utf8");
    const setUp = /^```sh\n(.*?)\n```$/ms.exec(readme)?.[1];
    expect(setUp).toMatch(
      new RegExp(`^PATH=\\$\\(bash scripts/node\\.sh ${first}\\):\\$PATH && npm ci && `),
    );
  });

  it("leaves Node 20 out of the versions docklens runs on", () => {
    expect(pkg.engines.node).toBe(">=22.13");
  });
});

describe("docklens on a Node older than package.json's engines", () => {
  // The machine's own Node, which is older (20 here; Debian bookworm's own is 18).
  const oldNode = "/usr/bin/node";

  it("says which Node it needs in one line, and exits 1", async () => {
    const { stdout: version } = await run(oldNode, ["-p", "process.versions.node"]);
    const [major, minor] = version.trim().split(".").map(Number);
    expect(major! * 1000 + minor!, `${oldNode} is ${version.trim()}`).toBeLessThan(22_013);
    const failed = await run(oldNode, [join(root, "bin/docklens.mjs"), "clusters"]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    const needed = pkg.engines.node.replace(">=", "");
    expect(failed).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `docklens needs Node ${needed} or later; this is Node ${version.trim()}\n`,
    });
  });
});
