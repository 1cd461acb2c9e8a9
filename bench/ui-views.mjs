#!/usr/bin/env node
// The dashboard's operator views under load, in Debian's headless Chromium (playwright-core):
// - logs: the Logs view following N containers (default 50) that write R lines a second between
//   them (default 200), for S seconds (default 60): frames drawn and dropped (animation frames
//   more than 1.5 frame apart, counted in missed 60 Hz frames), the page's JS heap after a GC,
//   its CPU (CDP TaskDuration over the wall time), and lines received against lines drawn;
// - stats: the Stats view over the same N running containers for T seconds (default 30): the
//   page's CPU and heap.
// Run by hand, never in tests; as root, after `npm run build`:
//   node bench/ui-views.mjs [--containers 50] [--rate 200] [--seconds 60] [--stats-seconds 30]
//   (`--seconds 0` measures only the Stats view: `--containers 150 --seconds 0`)
// The containers are made once in the bench engine and kept; stop it with
//   bash scripts/engine.sh stop /tmp/docklens-bench-views
/* global requestAnimationFrame -- the functions given to page.evaluate run in the page */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { runningEngine, startServe } from "./lib.mjs";
import ARGS from "../test/integration/browser/chromium-args.json" with { type: "json" };

const { values } = parseArgs({
  options: {
    containers: { type: "string", default: "50" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "60" },
    "stats-seconds": { type: "string", default: "30" },
    dir: { type: "string", default: "/tmp/docklens-bench-views" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  },
});
const [count, rate, seconds, statsSeconds] = [
  values.containers,
  values.rate,
  values.seconds,
  values["stats-seconds"],
].map(Number);
// Each container writes its share in one burst per second (busybox's sleep paces no finer),
// lines of about 100 characters, as an application's log lines are.
const each = Math.max(1, Math.round(rate / count));
const script =
  `i=0; while true; do j=0; while [ $j -lt ${each} ]; do i=$((i+1)); j=$((j+1)); ` +
  `echo "$(date +%T) INFO request $i handled in 12ms path=/api/items/$i status=200 bytes=5120 user=bench"; ` +
  `done; sleep 1; done`;
const label = `uiviews${count}x${each}=1`;
const host = runningEngine(values.dir, count, script, label);

const configDir = mkdtempSync(join(tmpdir(), "docklens-ui-views-"));
const config = join(configDir, "docklens.config.json");
// A longer time limit than the default 5 s: a busy engine takes longer to sample 150 at once,
// and the page is measured here, not the engine.
writeFileSync(
  config,
  JSON.stringify({ clusters: [{ name: "bench", host, timeoutMs: 15_000 }], maxSelection: 1000 }),
);
const serve = await startServe({ DOCKLENS_CONFIG: config });
const browser = await chromium.launch({ executablePath: values.chromium, args: ARGS });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const metric = async (name) =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === name).value;
  const selection = `label=${encodeURIComponent(label)}`;

  // Logs.
  if (seconds > 0) await logs();
  async function logs() {
    await page.goto(`${serve.url}/#/logs?${selection}&tail=10`);
    await page.locator(".log-row").first().waitFor({ timeout: 30_000 });
    await sleep(3000);
    const task0 = await metric("TaskDuration");
    const frames = page.evaluate(
      (ms) =>
        new Promise((resolve) => {
          const gaps = [];
          let last = performance.now();
          const end = last + ms;
          const tick = (now) => {
            gaps.push(now - last);
            last = now;
            if (now < end) requestAnimationFrame(tick);
            else resolve(gaps);
          };
          requestAnimationFrame(tick);
        }),
      seconds * 1000,
    );
    const gaps = await frames;
    const cpu = (await metric("TaskDuration")) - task0;
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = await metric("JSHeapUsedSize");
    const shown = await page.getByTestId("log-count").textContent();
    const frame = 1000 / 60;
    const late = gaps.filter((gap) => gap > 1.5 * frame);
    const dropped = late.reduce((sum, gap) => sum + Math.round(gap / frame) - 1, 0);
    console.log(
      `logs: ${count} containers, ${each * count} lines/s, ${seconds} s: ${gaps.length} frames drawn, ` +
        `${dropped} dropped (${late.length} late frames, worst ${Math.max(...gaps).toFixed(0)} ms), ` +
        `page CPU ${((cpu / seconds) * 100).toFixed(0)}% of a core, heap ${(heap / 1e6).toFixed(1)} MB after GC, ` +
        `${shown.trim().replace(/\s+/g, " ")}`,
    );
  }

  // Stats.
  await page.goto(`${serve.url}/#/stats?${selection}`);
  await page.locator("table.data tbody tr").first().waitFor({ timeout: 30_000 });
  await sleep(5000);
  const task1 = await metric("TaskDuration");
  await sleep(statsSeconds * 1000);
  const statsCpu = (await metric("TaskDuration")) - task1;
  const rows = await page.locator("table.data tbody tr").count();
  // Those a busy engine did not sample in time, in the last round.
  const missed = await page
    .getByTestId("failures")
    .locator("summary")
    .textContent({ timeout: 100 })
    .catch(() => "");
  await cdp.send("HeapProfiler.collectGarbage");
  console.log(
    `stats: ${rows} running containers of ${count} in the last round` +
      `${missed ? ` (${missed.slice(0, 100)})` : ""}, ${statsSeconds} s: page CPU ` +
      `${((statsCpu / statsSeconds) * 100).toFixed(1)}% of a core, heap ` +
      `${((await metric("JSHeapUsedSize")) / 1e6).toFixed(1)} MB after GC`,
  );
} finally {
  await browser.close();
  await serve.stop();
  rmSync(configDir, { recursive: true, force: true });
}
