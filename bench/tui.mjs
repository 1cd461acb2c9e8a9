#!/usr/bin/env node
// `docklens tui` at scale (issue 48): the built CLI in a real pseudo-terminal over 41 simulated
// engines of 301 containers each (12,341; bench/simulated-engines.mjs, as bench/ui.mjs) and a hung
// one, its screen read through @xterm/headless (test/integration/tui-screen.ts: Node 22.18+).
// First full screen, keystrokes (scroll, filter a letter) until redrawn, idle CPU, RSS, and the
// engine event streams opened.
//   node bench/tui.mjs [--engines 41] [--containers 301] [--keys 40] [--dir /tmp/docklens-bench]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cpuSeconds, median, sleep } from "./lib.mjs";
import { recordBodies, startSimulatedEngines } from "./simulated-engines.mjs";
import { startTui } from "../test/integration/tui-screen.ts";

const { values } = parseArgs({
  options: {
    engines: { type: "string", default: "41" },
    containers: { type: "string", default: "301" },
    keys: { type: "string", default: "40" },
    dir: { type: "string", default: "/tmp/docklens-bench" },
  },
});
const [engines, perEngine, keys] = [values.engines, values.containers, values.keys].map(Number);
const total = engines * perEngine;
const bodies = await recordBodies(values.dir, perEngine, false);
const simulated = await startSimulatedEngines({
  bodies,
  delays: Array.from({ length: engines }, () => 20),
  hung: 1,
});
const configDir = mkdtempSync(join(tmpdir(), "docklens-tui-"));
const config = join(configDir, "docklens.json");
const clusters = simulated.ports.map((port, i) => ({
  name: i < engines ? `sim-${i + 1}` : "hung",
  host: "127.0.0.1",
  port,
  timeoutMs: 5000,
}));
writeFileSync(config, JSON.stringify({ clusters }));
const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${median(sorted).toFixed(1)} ms, worst ${sorted.at(-1).toFixed(1)} ms`;
};
// Timed from the key to the first change drawn (quietMs 0), not to the frame's last byte.
const screen = startTui(["--config", config], { columns: 160, rows: 48, quietMs: 0 });
try {
  const start = performance.now();
  await screen.waitFor(`${total} containers`, 120_000);
  const first = performance.now() - start;
  // Scroll: past the middle of the screen, each `j` moves every row up by one.
  for (let i = 0; i < 30; i++) screen.press("j");
  await sleep(1000);
  const scroll = [];
  for (let i = 0; i < keys; i++) {
    const before = screen.lines().join("\n");
    const t = performance.now();
    screen.press("j");
    await screen.waitFor((now) => now !== before);
    scroll.push(performance.now() - t);
  }
  // Filter: one letter at a time, each until the count of matching rows is drawn.
  // Keys typed within a frame reach the screen as one input (`j/`): the last frame first.
  await sleep(500);
  screen.press("/");
  await screen.waitFor("▏");
  const filter = [];
  for (const letter of "sim-1") {
    const before = screen.lines().at(-2);
    const t = performance.now();
    screen.press(letter);
    await screen.waitFor(() => screen.lines().at(-2) !== before);
    filter.push(performance.now() - t);
  }
  screen.press("\x1b");
  await sleep(5000);
  const cpu0 = cpuSeconds(screen.pid);
  await sleep(10_000);
  const idle = (cpuSeconds(screen.pid) - cpu0) / 10;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${screen.pid}/status`, "utf8"))[1]);
  const { calls } = await simulated.calls();
  const events = Object.entries(calls)
    .filter(([path]) => path.startsWith("/events"))
    .reduce((sum, [, n]) => sum + n, 0);
  console.log(`containers: ${total} (${engines} engines x ${perEngine}) and 1 hung engine`);
  console.log(`first full screen: ${first.toFixed(0)} ms (goal <= 1000)`);
  console.log(`scroll a row: ${stats(scroll)} (goal median <= 16, worst <= 50)`);
  console.log(`filter a letter: ${stats(filter)} (same goal)`);
  console.log(`idle CPU: ${(idle * 100).toFixed(1)} % of a core (goal < 1)`);
  console.log(`RSS: ${(rss / 1024).toFixed(0)} MB (goal < 200)`);
  console.log(`engine event streams opened: ${events} (goal: one per engine)`);
  screen.press("q");
  await screen.exited();
} finally {
  screen.kill();
  await simulated.close();
  rmSync(configDir, { recursive: true, force: true });
}
