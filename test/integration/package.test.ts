import { execFile } from "node:child_process";
import { mkdtemp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { dockerIds, engines } from "./helpers.ts";

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");

describe("the npm package", () => {
  it("runs from its tarball with npx in an empty folder", async () => {
    const dir = await mkdtemp(join(engines.tmp, "pack-"));
    await exec("npm", ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: ROOT });
    const tarball = (await readdir(dir)).find((file) => file.endsWith(".tgz"))!;
    const { stdout } = await exec("npx", ["--yes", `./${tarball}`, "clusters", "--json"], {
      cwd: dir,
      env: {
        ...process.env,
        DOCKER_HOST: engines.hostA,
        DOCKLENS_CONFIG: "",
        npm_config_update_notifier: "false",
      },
    });
    const [local] = JSON.parse(stdout).clusters;
    expect(local).toMatchObject({
      id: 1,
      name: "local",
      host: engines.hostA.replace("unix://", ""),
    });
    expect(local.docker.Containers).toBe((await dockerIds(engines.hostA, "ps", "-aq")).length);
  }, 120_000);
});
