import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { freePort } from "../support/ports.ts";
import { dockerIds, engines, spawnServe } from "./helpers.ts";
import { startProxy } from "./proxy.ts";
import { raw, startServer } from "./server-helpers.ts";

/**
 * `GET /metrics`, scraped by a real Prometheus (Debian's package) with the bearer token, and
 * read back through Prometheus' own query API; compared with what the docker CLI counts.
 */
const TOKEN = "metrics-t0k3n";
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

const scrape = async () =>
  (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
const sample = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}"=,]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);

beforeAll(async () => {
  const started = await spawnServe(["--json", "--quiet", "--token", TOKEN]);
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
});
