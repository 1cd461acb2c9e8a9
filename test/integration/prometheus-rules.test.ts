import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** examples/prometheus: alerting rules over docklens's metrics, checked by Debian's promtool. */
const exec = promisify(execFile);
const dir = join(import.meta.dirname, "../../examples/prometheus");

describe("examples/prometheus", () => {
  it("passes promtool check rules", async () => {
    const { stdout } = await exec("promtool", ["check", "rules", "docklens-rules.yml"], {
      cwd: dir,
    });
    expect(stdout).toMatch(/SUCCESS: 8 rules found/);
  });

  it("passes its promtool unit tests", async () => {
    const { stdout } = await exec("promtool", ["test", "rules", "docklens-rules.test.yml"], {
      cwd: dir,
    });
    expect(stdout).toMatch(/SUCCESS/);
  });

  it("names only metrics docklens serves", async () => {
    const [rules, metrics] = await Promise.all([
      readFile(join(dir, "docklens-rules.yml"), "utf8"),
      readFile(join(import.meta.dirname, "../../src/server/metrics.ts"), "utf8"),
    ]);
    const names = new Set(rules.match(/\bdocklens_[a-z_]+/g));
    expect(names.size).toBeGreaterThan(4);
    for (const name of names) expect(metrics, name).toContain(`"${name}"`);
  });
});
