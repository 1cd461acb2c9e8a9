import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BIN, docker, engines } from "./helpers.ts";

const exec = promisify(execFile);

describe("examples/jq.sh", () => {
  it("runs to the end against a real engine, with no server running", async () => {
    // `docklens` on the PATH, as the README's set-up puts it there, on the Node running the tests.
    const bin = join(engines.tmp, "jq-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "docklens"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(bin, "docklens"), 0o755);
    const config = join(bin, "docklens.json");
    await writeFile(config, JSON.stringify({ clusters: [{ name: "local", host: engines.hostA }] }));
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: engines.tmp,
      DOCKLENS_CONFIG: config,
      DOCKLENS_URL: "http://127.0.0.1:1",
    };
    const { stdout, stderr } = await exec(
      "bash",
      [join(import.meta.dirname, "../../examples/jq.sh")],
      { env },
    );
    const running = await docker(
      engines.hostA,
      "ps",
      "--filter",
      "status=running",
      "--format",
      "{{.Names}}",
    );
    for (const name of running.split("\n")) expect(stdout).toContain(`local\t/${name}\n`);
    expect(stdout).toContain("/failed\n");
    expect(stdout).toContain("local/sick\n");
    expect(stdout).toContain("local/web running\n");
    expect(stdout).toContain("shop: local/shop-web\n");
    expect(stderr).toBe(
      "no docklens serve answers on http://127.0.0.1:1: the HTTP example is skipped\n",
    );
  });
});
