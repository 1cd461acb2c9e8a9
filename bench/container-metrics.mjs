#!/usr/bin/env node
// `/metrics` with the per-container series (issue 47): `docklens serve` over --engines simulated
// engines (bench/simulated-engines.mjs) of --per-engine running containers each, recording
// history (its stats samples every 15 s feed the series), scraped --runs times once every
// container has its series. Needs a build (`npm run build`) and the bench engine (recorded once).
//   node bench/container-metrics.mjs [--engines 100] [--per-engine 120] [--runs 21]
// It prints a Markdown table: a scrape's time (median, slowest), its bytes, serve's RSS before and
// after the scrapes, and with the series turned off (`metrics.containers: false`) for comparison.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, sleep, startServe } from "./lib.mjs";
import { recordBodies, startSimulatedEngines, withRunning } from "./simulated-engines.mjs";

const { values } = parseArgs({
  options: {
    engines: { type: "string", default: "100" },
    "per-engine": { type: "string", default: "120" },
    runs: { type: "string", default: "21" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const ENGINES = Number(values.engines);
const PER_ENGINE = Number(values["per-engine"]);
const TOTAL = ENGINES * PER_ENGINE;
const RUNS = Number(values.runs);

const bodies = withRunning(await recordBodies(values.dir, PER_ENGINE, false), 1);
const engines = await startSimulatedEngines({ bodies, delays: Array(ENGINES).fill(2) });
const scratch = mkdtempSync(join(tmpdir(), "docklens-container-metrics-"));
const clusters = engines.ports.map((port, i) => ({
  name: `sim-${i + 1}`,
  host: "127.0.0.1",
  port,
}));
const seriesOf = (text) => text.match(/^container_last_seen\{/gm)?.length ?? 0;

/**
 * Serve with `metrics`, waited for until its scrape holds `expected` containers (or, with none
 * expected, for `waitMs`: the recorder's first round done as well); its figures.
 */
async function measure(label, metrics, expected, waitMs = 0) {
  const config = join(scratch, `${label}.json`);
  const history = { path: join(scratch, `${label}.sqlite`), statsInterval: "15s", logs: false };
  writeFileSync(config, JSON.stringify({ clusters, history, metrics }));
  const serve = await startServe({}, ["--config", config]);
  try {
    // fetch asks for gzip, as Prometheus does; `identity` for the scrape without compressing it.
    const scrape = async (encoding = "gzip") => {
      const started = performance.now();
      const headers = { "accept-encoding": encoding };
      const text = await (await fetch(`${serve.url}/metrics`, { headers })).text();
      return { ms: performance.now() - started, text };
    };
    const waitStart = performance.now();
    let last = await scrape();
    // Every container sampled once (the recorder's first round); the series off: the first scrape.
    while (expected && seriesOf(last.text) < expected) {
      if (performance.now() - waitStart > 600_000)
        throw new Error(`${label}: never had ${expected}`);
      await sleep(1000);
      last = await scrape();
    }
    await sleep(Math.max(0, waitMs - (performance.now() - waitStart)));
    const ready = (performance.now() - waitStart) / 1000;
    const before = serve.rssKiB();
    const times = [];
    const plain = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const { ms, text } = await scrape();
      times.push(ms);
      plain.push((await scrape("identity")).ms);
      bytes = text.length;
    }
    return {
      label,
      series: seriesOf(last.text),
      ready,
      median: median(times),
      plain: median(plain),
      slowest: Math.max(...times),
      bytes,
      rssBefore: before / 1024,
      rssAfter: serve.rssKiB() / 1024,
    };
  } finally {
    await serve.stop();
  }
}

try {
  const on = await measure("on", { containers: { max: TOTAL } }, TOTAL);
  const rows = [on, await measure("off", { containers: false }, 0, on.ready * 1000 + 5000)];
  console.log(
    `${ENGINES} simulated engines of ${PER_ENGINE} running containers (${TOTAL}), ${RUNS} scrapes of each kind, alternating\n`,
  );
  console.log(
    "| series | containers with series | measured after (s) | scrape median, gzip (ms) | slowest (ms) | median, not compressed (ms) | bytes | RSS before / after scrapes (MiB) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows)
    console.log(
      `| ${row.label} | ${row.series} | ${row.ready.toFixed(1)} | ${row.median.toFixed(0)} | ${row.slowest.toFixed(0)} | ${row.plain.toFixed(0)} | ${(row.bytes / 1024).toFixed(0)} KiB | ${row.rssBefore.toFixed(0)} / ${row.rssAfter.toFixed(0)} |`,
    );
} finally {
  await engines.close();
  rmSync(scratch, { recursive: true, force: true });
}
