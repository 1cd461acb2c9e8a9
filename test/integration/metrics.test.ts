import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";
import { dashboardQueries } from "./grafana-queries.ts";
import {
  containerForFile,
  docker,
  dockerIds,
  engines,
  spawnServe,
  writeConfig,
} from "./helpers.ts";
import { startProxy } from "./proxy.ts";
import { raw, startServer } from "./server-helpers.ts";

/**
 * `GET /metrics`, scraped by a real Prometheus (Debian's package) with the bearer token, and
 * read back through Prometheus' own query API; compared with what the docker CLI counts. Serve
 * records history with a sample a second, so each running container has cAdvisor's series.
 */
const TOKEN = "metrics-t0k3n";
const BRAVO_TOKEN = "metrics-bravo-only";
const IMAGE = "local/busybox:1";
/** A container that uses some CPU all the time (a short busy loop, then a nap), in a compose project. */
const BUSY = "metrics-busy";
const BUSY_LOOP = "while true; do i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; sleep 0.1; done";
const BRAVO_ONE = "metrics-bravo";
/** A compose project label no label value should be: quotes, a backslash, a line feed. */
const HOSTILE_PROJECT = 'q"uote\\back\nline} 1\nfake_series 9';
containerForFile(engines.hostA, [
  "--name",
  "metrics-hostile",
  "-l",
  `com.docker.compose.project=${HOSTILE_PROJECT}`,
  IMAGE,
  "sleep",
  "3600",
]);
containerForFile(engines.hostA, [
  "--name",
  BUSY,
  "-l",
  "com.docker.compose.project=fleet",
  "-l",
  "com.docker.compose.service=burner",
  IMAGE,
  "sh",
  "-c",
  BUSY_LOOP,
]);
containerForFile(engines.hostB, ["--name", BRAVO_ONE, IMAGE, "sleep", "3600"]);
let config: string;
let serve: ChildProcess;
let prometheus: ChildProcess;
let url: string;
let prometheusUrl: string;

/** A value Prometheus holds for `query`, once it has one (it scrapes every second). */
async function query(promql: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const body = (await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`)
      .then((r) => r.json())
      // Not up yet: refused, or a 503 in plain text.
      .catch(() => undefined)) as
      { data?: { result: Array<{ value: [number, string] }> } } | undefined;
    const value = body?.data?.result[0]?.value[1];
    if (value !== undefined) return Number(value);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`Prometheus has no value for ${promql} after 30 s`);
}

const scrape = async (token = TOKEN, at = url) =>
  (await fetch(`${at}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
/** The line of `series` whose labels hold `name="<name>"`, once a scrape has it. */
async function seriesOf(series: string, name: string, token = TOKEN): Promise<string> {
  let found: string | undefined;
  await until(async () => {
    found = (await scrape(token))
      .split("\n")
      .find((line) => line.startsWith(`${series}{`) && line.includes(`name="${name}"`));
    return found !== undefined;
  }, 30_000);
  expect(found, `${series} of ${name}`).toBeDefined();
  return found!;
}
const sample = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}"=,]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);

/** The suite's config, with history sampling every second into this file's scratch dir. */
async function configWith(name: string, extra: object): Promise<string> {
  const base = JSON.parse(await readFile(engines.configPath, "utf8"));
  const dir = await mkdtemp(join(engines.tmp, "metrics-history-"));
  return writeConfig(name, {
    ...base,
    history: { path: join(dir, "history.sqlite"), statsInterval: "1s", logs: false },
    ...extra,
  });
}

beforeAll(async () => {
  config = await configWith("metrics.json", {
    tokens: [{ name: "bravo-only", env: "METRICS_BRAVO", clusters: ["bravo"] }],
  });
  const started = await spawnServe(["--json", "--quiet", "--token", TOKEN], {
    config,
    env: {
      ...process.env,
      XDG_DATA_HOME: join(engines.tmp, "xdg-data"),
      METRICS_BRAVO: BRAVO_TOKEN,
    },
  });
  serve = started.child;
  url = JSON.parse(started.line).url;
  const dir = await mkdtemp(join(engines.tmp, "prometheus-"));
  const target = new URL(url).host;
  await writeFile(
    join(dir, "prometheus.yml"),
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: docklens\n    authorization:\n      credentials: ${TOKEN}\n    static_configs:\n      - targets: ["${target}"]\n`,
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    "prometheus",
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: "ignore" },
  );
});

afterAll(async () => {
  for (const child of [prometheus, serve]) {
    if (!child || child.exitCode !== null) continue;
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});

describe("metrics", () => {
  it("a real Prometheus scrapes serve with the token and reads what the docker CLI counts", async () => {
    expect(await query('up{job="docklens"} == 1')).toBe(1);
    const running = (await dockerIds(engines.hostA, "ps", "-q", "--filter", "status=running"))
      .length;
    expect(await query('docklens_containers{cluster="alpha",state="running"}')).toBe(running);
    const exited = (await dockerIds(engines.hostA, "ps", "-aq", "--filter", "status=exited"))
      .length;
    expect(await query('docklens_containers{cluster="alpha",state="exited"}')).toBe(exited);
    expect(await query('docklens_containers_unhealthy{cluster="alpha"}')).toBe(
      (await dockerIds(engines.hostA, "ps", "-q", "--filter", "health=unhealthy")).length,
    );
    expect(await query('docklens_engine_up{cluster="bravo"}')).toBe(1);
    // A hanging engine is down once its time limit passed, and the scrape still succeeds.
    expect(await query('docklens_engine_up{cluster="hang"}')).toBe(0);
    expect(await query('docklens_engine_up{cluster="dead"}')).toBe(0);
    expect(await query('docklens_volumes{cluster="alpha"}')).toBe(
      (await dockerIds(engines.hostA, "volume", "ls", "-q")).length,
    );
  });

  it("counts requests by route template, never by raw path, and is under the token", async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    await Promise.all(
      ["/list/alpha/containers", "/list/bravo/containers", "/list/nope/containers"].map((path) =>
        fetch(url + path, { headers }).then((r) => r.text()),
      ),
    );
    // A request is counted once its response has closed on the server's side, just after the
    // client has it, so each count is awaited, not only the last one (a loaded CI lane closed the
    // 404 before one of the 200s).
    const counted = (body: string) =>
      sample(
        body,
        'docklens_http_requests_total{route="/list/:cluster/containers",status="200"}',
      ) >= 2 &&
      sample(
        body,
        'docklens_http_requests_total{route="/list/:cluster/containers",status="404"}',
      ) >= 1;
    let text = await scrape();
    for (let i = 0; i < 50 && !counted(text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await scrape();
    }
    expect(
      sample(text, 'docklens_http_requests_total{route="/list/:cluster/containers",status="200"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'docklens_http_requests_total{route="/list/:cluster/containers",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/list\/(alpha|bravo|nope)/);
    expect(text).toMatch(
      /^docklens_http_request_duration_seconds_bucket\{le="0\.005",route="\/list\/:cluster\/containers"\}/m,
    );
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
  });

  it("scrapes that come at once share one fan-out: the engine is asked once for its info and once for its containers", async () => {
    // A slow link, so that all the scrapes sent at once arrive while the first one's fan-out runs.
    const link = await startProxy({ path: engines.hostA.replace("unix://", "") }, 1500);
    const config = join(engines.tmp, "metrics-alpha.json");
    await writeFile(
      config,
      JSON.stringify({ clusters: [{ name: "alpha", host: "127.0.0.1", port: link.port }] }),
    );
    const fleet = await loadFleet({ configPath: config });
    const server = await startServer({ log: false, fleet });
    try {
      const slot = fleet.slot(fleet.config.clusters[0]!);
      // The first scrape also reads the engine's facts (/version), once per connection.
      await raw(server.port, "/metrics");
      expect(slot.calls).toBe(3);
      expect(link.requests.filter((request) => request === "GET /version")).toHaveLength(1);
      const texts = await Promise.all(
        Array.from({ length: 8 }, () => raw(server.port, "/metrics").then((r) => r.text)),
      );
      expect(slot.calls).toBe(3 + 2);
      expect(link.requests.filter((request) => request === "GET /version")).toHaveLength(1);
      expect(
        new Set(
          texts.map((text) => sample(text, 'docklens_containers{cluster="alpha",state="running"}')),
        ).size,
      ).toBe(1);
    } finally {
      await server.close();
      await link.close();
    }
  });

  it("serves cAdvisor's series of a running container, labelled with its cluster and compose project", async () => {
    const id = await docker(engines.hostA, "inspect", "-f", "{{.Id}}", BUSY);
    const line = await seriesOf("container_cpu_usage_seconds_total", BUSY);
    for (const label of [
      'cluster="alpha"',
      `id="${id}"`,
      `image="${IMAGE}"`,
      'project="fleet"',
      'service="burner"',
    ])
      expect(line).toContain(label);
    const text = await scrape();
    for (const series of [
      "container_memory_working_set_bytes",
      "container_memory_usage_bytes",
      "container_spec_memory_limit_bytes",
      "container_network_receive_bytes_total",
      "container_network_transmit_bytes_total",
      "container_fs_reads_bytes_total",
      "container_fs_writes_bytes_total",
      "container_processes",
      "container_last_seen",
    ])
      expect(text).toMatch(new RegExp(`^${series}\\{[^}]*name="${BUSY}"[^}]*\\} \\d`, "m"));
    expect(text).toMatch(/^# TYPE container_cpu_usage_seconds_total counter$/m);
    expect(text).toMatch(/^docklens_container_series_omitted 0$/m);
    // Its processes: the shell, at least.
    expect(Number(line.split(" ").at(-1))).toBeGreaterThan(0);
    // Over Prometheus' scrapes the counter grows: rate() has a value, above zero.
    expect(
      await query(
        `rate(container_cpu_usage_seconds_total{cluster="alpha",name="${BUSY}",service="burner"}[5s]) > 0`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await query(`container_memory_working_set_bytes{cluster="alpha",name="${BUSY}"}`),
    ).toBeGreaterThan(0);
  });

  it("each per-container query of the Grafana dashboard has a value for a running container", async () => {
    const perContainer = (await dashboardQueries("5s")).filter((expr) =>
      expr.includes("by (cluster, name)"),
    );
    expect(perContainer.length).toBeGreaterThan(5);
    for (const expr of perContainer)
      expect(
        await query(`(${expr}) and on (cluster, name) container_last_seen{name="${BUSY}"}`),
        expr,
      ).not.toBeNaN();
  });

  it("escapes a hostile label value: Prometheus reads it back as it was, and no series comes of it", async () => {
    expect(
      await query(
        `container_last_seen{name="metrics-hostile",project=${JSON.stringify(HOSTILE_PROJECT)}}`,
      ),
    ).toBeGreaterThan(0);
    expect(await query('up{job="docklens"}')).toBe(1);
    expect(await scrape()).not.toMatch(/^fake_series/m);
  });

  it("a scoped token's scrape holds its clusters' containers only", async () => {
    await seriesOf("container_cpu_usage_seconds_total", BUSY);
    const line = await seriesOf("container_cpu_usage_seconds_total", BRAVO_ONE, BRAVO_TOKEN);
    expect(line).toContain('cluster="bravo"');
    const text = await scrape(BRAVO_TOKEN);
    expect(text).not.toContain(BUSY);
    expect(text).not.toMatch(/^container_[a-z_]+\{[^}]*cluster="alpha"/m);
  });

  it("past metrics.containers.max, leaves the per-container series out and counts them", async () => {
    const bounded = await configWith("metrics-bounded.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
      metrics: { containers: { max: 1 } },
    });
    const started = await spawnServe(["--json", "--quiet", "--token", TOKEN], { config: bounded });
    try {
      const at = JSON.parse(started.line).url as string;
      const running = (await dockerIds(engines.hostA, "ps", "-q", "--filter", "status=running"))
        .length;
      expect(running).toBeGreaterThan(1);
      let text = "";
      await until(async () => {
        text = await scrape(TOKEN, at);
        return sample(text, "docklens_container_series_omitted") === running;
      }, 30_000);
      expect(sample(text, "docklens_container_series_omitted")).toBe(running);
      expect(text).not.toMatch(/^container_/m);
    } finally {
      started.child.kill("SIGTERM");
      await once(started.child, "exit");
    }
  });
});
