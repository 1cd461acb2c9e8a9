#!/usr/bin/env node
// The dashboard at scale: `docklens serve` (the built CLI) over 40 simulated engines of 300
// containers each (12,000 containers; bench/simulated-engines.mjs, as bench/scale.mjs uses
// them), opened in Debian's headless Chromium with playwright-core. It measures:
// - usable: from navigation to the containers view holding every row, its first rows drawn
//   (the page's own clock, performance.now(), which starts at navigation);
// - keystroke: from a key pressed in the search box to the next frame with the table updated
//   (median, 90th percentile and worst of the keystrokes of typing a search and deleting it);
// - heap: the page's JS heap in use (CDP Performance.getMetrics), as loaded and after a GC;
// - wire: the bytes the browser received (CDP Network events' encodedDataLength: bodies as sent,
//   compressed or not, with headers), and the same bodies decoded.
// Run by hand, never in tests; as root (the bench engine records the bodies once):
//   node bench/ui.mjs [--engines 40] [--containers 300] [--delay 20] [--runs 3]
// Needs `npm run build` first (dist/ and dist/web) and /usr/bin/chromium.
/* global document, requestAnimationFrame -- the functions given to page.evaluate run in the page */
import { once } from "node:events";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { chromium } from "playwright-core";
import { median, startServe } from "./lib.mjs";
import { recordBodies } from "./simulated-engines.mjs";
// The tests' Chromium flags (test/integration/browser/browser.ts says why each).
import ARGS from "../test/integration/browser/chromium-args.json" with { type: "json" };

const SEARCH = "bench-12";

async function main() {
  const { values } = parseArgs({
    options: {
      engines: { type: "string", default: "40" },
      containers: { type: "string", default: "300" },
      delay: { type: "string", default: "20" },
      runs: { type: "string", default: "3" },
      dir: { type: "string", default: "/tmp/docklens-bench" },
      chromium: { type: "string", default: "/usr/bin/chromium" },
      // A PNG of the table scrolled halfway down, after the first run: to look at, not to measure.
      screenshot: { type: "string" },
    },
  });
  const [engines, perEngine, delay, runs] = [
    values.engines,
    values.containers,
    values.delay,
    values.runs,
  ].map(Number);
  const total = engines * perEngine;
  const state = {};
  const cleanup = async () => {
    await state.browser?.close().catch(() => {});
    if (state.serve) await Promise.race([state.serve.stop(), sleep(3000)]);
    if (state.worker) {
      state.worker.postMessage("close");
      await Promise.race([once(state.worker, "exit"), sleep(2000)]);
      await state.worker.terminate();
    }
    if (state.configDir) rmSync(state.configDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => cleanup().finally(() => process.exit(130)));

  try {
    const bodies = await recordBodies(values.dir, perEngine, false);
    state.worker = new Worker(new URL("./simulated-engines.mjs", import.meta.url), {
      workerData: { bodies, delays: Array.from({ length: engines }, () => delay) },
    });
    const { ports } = (await once(state.worker, "message"))[0];
    state.configDir = mkdtempSync(join(tmpdir(), "docklens-ui-"));
    const config = join(state.configDir, "docklens.json");
    const clusters = ports.map((port, i) => ({ name: `sim-${i + 1}`, host: "127.0.0.1", port }));
    writeFileSync(config, JSON.stringify({ clusters }));
    state.serve = await startServe({ DOCKLENS_CONFIG: config });
    state.browser = await chromium.launch({ executablePath: values.chromium, args: ARGS });
    const warm = await warmUp(state.serve.url, total);
    // The floor the page cannot beat: serve's own answer, to the last byte, to a bare client.
    const alone = [];
    let body;
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      const response = await fetch(`${state.serve.url}/list/containers`);
      body = Buffer.from(await response.arrayBuffer());
      alone.push(performance.now() - start);
    }
    // What the body would weigh compressed, for the wire goal (serve sends it as it is here).
    const gzipped = gzipSync(body).length;
    const brotli = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    }).length;

    const results = [];
    for (let run = 0; run < runs; run++)
      results.push(await measure(state, total, run === 0 ? values.screenshot : undefined));
    const pick = (key) => median(results.map((result) => result[key]));
    const keys = results.flatMap((result) => result.keys);
    const rows = [
      ["containers", `${total} (${engines} engines × ${perEngine})`, ""],
      ["serve's first whole list (its mirrors filled)", `${warm.toFixed(0)} ms`, ""],
      [
        "usable (navigation to all rows, first drawn)",
        `${pick("usable").toFixed(0)} ms`,
        "< 1500 ms",
      ],
      ["  the view mounted (its list asked for at start)", `${pick("request").toFixed(0)} ms`, ""],
      ["  then /list/containers answered and parsed", `${pick("response").toFixed(0)} ms`, ""],
      ["  (/list/containers alone, to a bare client)", `${median(alone).toFixed(0)} ms`, ""],
      ["  rows made", `${pick("rows").toFixed(0)} ms`, ""],
      ["  sorted and drawn", `${pick("drawn").toFixed(0)} ms`, ""],
      [
        `keystroke (typing "${SEARCH}" and deleting it)`,
        `median ${median(keys).toFixed(1)} ms, p90 ${p90(keys).toFixed(1)} ms, worst ${Math.max(...keys).toFixed(1)} ms`,
        "<= 50 ms",
      ],
      ["JS heap in use, loaded", `${mb(pick("heap"))} MB`, "< 150 MB"],
      ["JS heap in use, after a GC", `${mb(pick("heapAfterGc"))} MB`, ""],
      ["received on the wire", `${mb(pick("wire"))} MB`, "< 1.5 MB"],
      ["  of which /list/containers", `${mb(pick("listWire"))} MB`, ""],
      ["  /list/containers gzipped, brotli (q 4)", `${mb(gzipped)} MB, ${mb(brotli)} MB`, ""],
      ["received, bodies decoded", `${mb(pick("decoded"))} MB`, ""],
      ["  script and style (first load)", `${kb(pick("assets"))} KB`, ""],
    ];
    console.log(
      `\ndocklens dashboard, ${runs} runs (medians), Chromium headless, ${process.arch}\n`,
    );
    const width = Math.max(...rows.map((row) => row[0].length));
    for (const [name, value, goal] of rows)
      console.log(`${name.padEnd(width)}  ${value.padEnd(34)} ${goal}`);
    const encoding = results[0].encoding;
    console.log(`\n/list/containers Content-Encoding: ${encoding || "none (sent raw)"}`);
  } finally {
    await cleanup();
  }
}

/**
 * Wait for serve's mirrors to hold every engine's list (each container inspected once, as the
 * hub does on its first list), reading /list/containers until it has `total` containers: the
 * page is measured against a warm serve. Resolves with how long that took.
 */
async function warmUp(url, total) {
  const start = performance.now();
  for (;;) {
    const body = await (await fetch(`${url}/list/containers`)).json();
    if (body.containers.length === total) return performance.now() - start;
    if (performance.now() - start > 180_000)
      throw new Error(`serve listed ${body.containers.length} of ${total} containers after 3 min`);
    await sleep(1000);
  }
}

/** One cold load of the containers view in a fresh context, then the keystrokes. */
async function measure(state, total, screenshot) {
  const context = await state.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Performance.enable");
  const requests = new Map();
  let wire = 0;
  let decoded = 0;
  let listWire = 0;
  let assets = 0;
  let encoding = "";
  cdp.on("Network.responseReceived", ({ requestId, response, type }) => {
    requests.set(requestId, { url: response.url, type });
    if (response.url.includes("/list/containers"))
      encoding = response.headers["content-encoding"] ?? response.headers["Content-Encoding"] ?? "";
  });
  cdp.on("Network.dataReceived", ({ dataLength }) => (decoded += dataLength));
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    wire += encodedDataLength;
    const request = requests.get(requestId);
    if (request?.url.includes("/list/containers")) listWire += encodedDataLength;
    if (request && (request.type === "Script" || request.type === "Stylesheet"))
      assets += encodedDataLength;
  });
  await page.goto(`${state.serve.url}/#/containers`);
  const usable = await page.waitForFunction(
    (want) => {
      const count = document.querySelector("p.count");
      const drawn = document.querySelector("tbody tr[data-key]");
      return count?.getAttribute("data-total") === String(want) && drawn
        ? performance.now()
        : false;
    },
    total,
    { polling: "raf", timeout: 60_000 },
  );
  const usableMs = await usable.jsonValue();
  const marks = Object.fromEntries(
    await page.evaluate(() =>
      performance.getEntriesByType("mark").map((mark) => [mark.name, mark.startTime]),
    ),
  );
  // The events stream stays open: count what it brought so far too.
  await sleep(500);

  // Keystrokes: from keydown to the first frame after the table changed.
  const input = page.getByTestId("search");
  await input.focus();
  await page.evaluate(() => {
    const box = document.querySelector('[data-testid="search"]');
    globalThis.__keys = [];
    box.addEventListener("keydown", () => {
      const start = performance.now();
      requestAnimationFrame(() =>
        setTimeout(() => globalThis.__keys.push(performance.now() - start), 0),
      );
    });
  });
  for (const key of SEARCH) {
    await page.keyboard.press(key);
    await sleep(120);
  }
  const shown = await page.locator("p.count").getAttribute("data-shown");
  for (let i = 0; i < SEARCH.length; i++) {
    await page.keyboard.press("Backspace");
    await sleep(120);
  }
  const keys = await page.evaluate(() => globalThis.__keys);
  if (screenshot) {
    await page.locator(".scroller").evaluate((box) => (box.scrollTop = box.scrollHeight / 2));
    await sleep(300);
    await page.screenshot({ path: screenshot });
  }
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
    );
  const heap = (await metrics()).JSHeapUsedSize;
  await cdp.send("HeapProfiler.collectGarbage");
  const heapAfterGc = (await metrics()).JSHeapUsedSize;
  if (!(Number(shown) > 0 && Number(shown) < total))
    throw new Error(`the search "${SEARCH}" showed ${shown} rows of ${total}`);
  await context.close();
  return {
    usable: usableMs,
    request: marks["containers:request"],
    response: marks["containers:parsed"] - marks["containers:request"],
    rows: marks["containers:rows"] - marks["containers:parsed"],
    drawn: usableMs - marks["containers:rows"],
    keys,
    heap,
    heapAfterGc,
    wire,
    decoded,
    listWire,
    assets,
    encoding,
  };
}

const p90 = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * 0.9)];
const mb = (bytes) => (bytes / 1e6).toFixed(2);
const kb = (bytes) => (bytes / 1e3).toFixed(1);
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

await main();
