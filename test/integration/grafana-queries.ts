import { readFile } from "node:fs/promises";
import { join } from "node:path";

interface Dashboard {
  panels: Array<{ targets?: Array<{ expr: string }> }>;
}

/**
 * Every query of examples/grafana's dashboard, its Grafana variables given the values Grafana
 * gives them with every cluster and project chosen, and `$__rate_interval` as `rateInterval`.
 */
export async function dashboardQueries(rateInterval = "1m"): Promise<string[]> {
  const path = join(import.meta.dirname, "../../examples/grafana/docklens-containers.json");
  const dashboard = JSON.parse(await readFile(path, "utf8")) as Dashboard;
  return dashboard.panels
    .flatMap((panel) => panel.targets ?? [])
    .map((target) =>
      target.expr
        .replaceAll("$__rate_interval", rateInterval)
        .replaceAll("$cluster", ".*")
        .replaceAll("$project", ".*"),
    );
}
