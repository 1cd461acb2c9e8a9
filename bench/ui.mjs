#!/usr/bin/env node
// The dashboard at scale: `docklens serve` (the built CLI) over 41 simulated engines of 301
// containers each (12,341 containers; bench/simulated-engines.mjs, as bench/scale.mjs uses
// them) and one more engine that is hung (takes connections, never answers), opened in Debian's
// headless Chromium with playwright-core. It measures:
// - usable: from navigation to the containers view holding every row of the engines that
//   answer, its first rows drawn (the page's own clock, performance.now(), which starts at
//   navigation): on a first visit (a new browser profile) once serve's mirrors are complete
//   (how long that took after serve started is reported too), and on a reload (a later visit);
// - keystroke: from a key pressed in the search box to the next frame with the table updated
//   (median, 90th percentile and worst of the keystrokes of typing a search and deleting it);
// - heap: the page's JS heap in use (CDP Performance.getMetrics), as loaded and after a GC;
// - wire: the bytes the browser received (CDP Network events' encodedDataLength: bodies as sent,
//   compressed or not, with headers), and the same bodies decoded.
// Run by hand, never in tests; as root (the bench engine records the bodies once):
//   node bench/ui.mjs [--engines 41] [--containers 301] [--hung 1] [--delay 20] [--runs 3]
// Needs `npm run build` first (dist/ and dist/web) and /usr/bin/chromium.
/* global document, requestAnimationFrame -- the functions given to page.evaluate run in the page */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  launchChromium,
  median,
  sleep,
  startServe,
  usableAt,
  waitForContainers as warmUp,
} from "./lib.mjs";
import { recordBodies, startSimulatedEngines } from "./simulated-engines.mjs";

const SEARCH = "bench-12";

async function main() {
  const { values } = parseArgs({
    options: {
      engines: { type: "string", default: "41" },
      containers: { type: "string", default: "301" },
      hung: { type: "string", default: "1" },
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
    await state.engines?.close();
    if (state.configDir) rmSync(state.configDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => cleanup().finally(() => process.exit(130)));

  try {
    const bodies = await recordBodies(values.dir, perEngine, false);
    state.engines = await startSimulatedEngines({
      bodies,
      delays: Array.from({ length: engines }, () => delay),
      hung: Number(values.hung),
    });
    const { ports } = state.engines;
    state.configDir = mkdtempSync(join(tmpdir(), "docklens-ui-"));
    const config = join(state.configDir, "docklens.json");
    const clusters = ports.map((port, i) => ({
      name: i < engines ? `sim-${i + 1}` : `hung-${i - engines + 1}`,
      host: "127.0.0.1",
      port,
    }));
    writeFileSync(config, JSON.stringify({ clusters }));
    state.serve = await startServe({ DOCKLENS_CONFIG: config });
    state.browser = await launchChromium(values.chromium);
    // serve just started: every mirror lists its engine (and inspects each container) first.
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

    const watched = await watchWire(state.serve.url);
    const results = [];
    for (let run = 0; run < runs; run++)
      results.push(await measure(state, total, run === 0 ? values.screenshot : undefined));
    const pick = (key) => median(results.map((result) => result[key]));
    const keys = results.flatMap((result) => result.keys);
    const rows = [
      [
        "containers",
        `${total} (${engines} engines × ${perEngine}), and ${values.hung} hung engine(s)`,
        "",
      ],
      ["serve's mirrors complete after its start", `${(warm / 1000).toFixed(1)} s`, ""],
      [
        "usable, first visit (new profile), serve warm",
        `${pick("usable").toFixed(0)} ms`,
        "<= 1000 ms",
      ],
      ["usable, later visit (reload)", `${pick("later").toFixed(0)} ms`, "<= 1000 ms"],
      ["  the watch asked for (page script run)", `${pick("request").toFixed(0)} ms`, ""],
      ["  its first snapshot line read", `${pick("response").toFixed(0)} ms`, ""],
      ["  (/list/containers alone, to a bare client)", `${median(alone).toFixed(0)} ms`, ""],
      ["  rows drawn after the first snapshot", `${pick("drawn").toFixed(0)} ms`, ""],
      [
        `keystroke (typing "${SEARCH}" and deleting it)`,
        `median ${median(keys).toFixed(1)} ms, p90 ${p90(keys).toFixed(1)} ms, worst ${Math.max(...keys).toFixed(1)} ms`,
        "<= 50 ms",
      ],
      ["JS heap in use, loaded", `${mb(pick("heap"))} MB`, "< 150 MB"],
      ["JS heap in use, after a GC", `${mb(pick("heapAfterGc"))} MB`, ""],
      ["received on the wire", `${mb(pick("wire"))} MB`, "< 1.5 MB"],
      ["  of which the watch (decoded)", `${mb(pick("listWire"))} MB`, ""],
      ["  /list/containers gzipped, brotli (q 4)", `${mb(gzipped)} MB, ${mb(brotli)} MB`, ""],
      [
        "  the watch's snapshots on the wire, brotli, flushed a line at a time",
        `${mb(watched.wire)} MB (${mb(watched.decoded)} MB decoded, ${watched.lines} lines)`,
        "",
      ],
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
  cdp.on("Network.dataReceived", ({ requestId, dataLength }) => {
    decoded += dataLength;
    // The watch stays open: its bytes are counted as they come, not when it ends.
    if (requests.get(requestId)?.url.includes("/list/containers")) listWire += dataLength;
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    wire += encodedDataLength;
    const request = requests.get(requestId);
    if (request && (request.type === "Script" || request.type === "Stylesheet"))
      assets += encodedDataLength;
  });
  await page.goto(`${state.serve.url}/#/containers`);
  const usableMs = await usableAt(page, total);
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
  await page.reload();
  const later = await usableAt(page, total);
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
    later,
    request: marks["containers:request"],
    response: marks["containers:snapshot"] - marks["containers:request"],
    drawn: usableMs - marks["containers:snapshot"],
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

/**
 * The watch as a browser asks for it (brotli), read for 3 s: its snapshots' bytes on the wire
 * (CDP counts a stream's bytes only when it ends, which the watch never does) and decoded.
 */
async function watchWire(url) {
  const { request } = await import("node:http");
  const { createBrotliDecompress } = await import("node:zlib");
  return new Promise((resolve, reject) => {
    let wire = 0;
    let decoded = 0;
    let lines = 0;
    const req = request(`${url}/list/containers?watch=true`, {
      headers: { "accept-encoding": "br" },
    });
    req.on("response", (res) => {
      res.on("data", (chunk) => (wire += chunk.length));
      res.pipe(createBrotliDecompress()).on("data", (chunk) => {
        decoded += chunk.length;
        lines += chunk.toString().split("\n").length - 1;
      });
      setTimeout(() => {
        req.destroy();
        resolve({ wire, decoded, lines });
      }, 3000);
    });
    req.on("error", reject);
    req.end();
  });
}

const p90 = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * 0.9)];
const mb = (bytes) => (bytes / 1e6).toFixed(2);
const kb = (bytes) => (bytes / 1e3).toFixed(1);

await main();
