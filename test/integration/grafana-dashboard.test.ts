import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { dashboardQueries } from "./grafana-queries.ts";
import { engines } from "./helpers.ts";

/**
 * examples/grafana: the fleet dashboard of containers and the recording rules it draws, checked
 * by Debian's promtool (the rules, their unit tests, and every query of the dashboard as PromQL).
 */
const exec = promisify(execFile);
const dir = join(import.meta.dirname, "../../examples/grafana");
const RULES = "docklens-containers-rules.yml";

describe("examples/grafana", () => {
  it("its rules pass promtool check rules and their unit tests", async () => {
    const checked = await exec("promtool", ["check", "rules", RULES], { cwd: dir });
    expect(checked.stdout).toMatch(/SUCCESS: 5 rules found/);
    const tested = await exec("promtool", ["test", "rules", "docklens-containers-rules.test.yml"], {
      cwd: dir,
    });
    expect(tested.stdout).toMatch(/SUCCESS/);
  });

  it("every query of the dashboard is PromQL promtool accepts", async () => {
    const queries = await dashboardQueries();
    expect(queries.length).toBeGreaterThan(8);
    const scratch = await mkdtemp(join(engines.tmp, "grafana-"));
    const rules = {
      groups: [
        {
          name: "dashboard",
          rules: queries.map((expr, index) => ({ record: `dashboard:query_${index}`, expr })),
        },
      ],
    };
    // JSON is YAML: promtool reads it as its rule file.
    await writeFile(join(scratch, "queries.yml"), JSON.stringify(rules));
    const { stdout } = await exec("promtool", ["check", "rules", "queries.yml"], { cwd: scratch });
    expect(stdout).toContain(`SUCCESS: ${queries.length} rules found`);
  });

  it("names only series docklens serves or its rules record", async () => {
    const [dashboard, rules, served] = await Promise.all([
      readFile(join(dir, "docklens-containers.json"), "utf8"),
      readFile(join(dir, RULES), "utf8"),
      Promise.all(
        ["container-metrics.ts", "metrics.ts"].map((file) =>
          readFile(join(import.meta.dirname, "../../src/server", file), "utf8"),
        ),
      ).then((texts) => texts.join("\n")),
    ]);
    const recorded = new Set([...rules.matchAll(/record: (\S+)/g)].map((match) => match[1]));
    // Each name whole: a recorded name holds the series it sums after its colon.
    const names = new Set(
      dashboard.match(/(?<![\w:])(container_|docklens_|cluster:)[a-z0-9_:]*[a-z0-9]/g),
    );
    expect(names.size).toBeGreaterThan(8);
    for (const name of names)
      if (name.startsWith("cluster:")) expect(recorded, name).toContain(name);
      else expect(served, name).toContain(`"${name}"`);
    for (const match of rules.matchAll(/(?<![\w:])(container_[a-z_]+)/g))
      expect(served, match[1]).toContain(`"${match[1]}"`);
  });
});
