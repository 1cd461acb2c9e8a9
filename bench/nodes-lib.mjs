// The pieces of bench/nodes.mjs: `docklens node`s hosted many to a process (bench/node-host.mjs),
// and what the parts wait for and count.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { median, sleep, timeToLastByte, usableAt } from "./lib.mjs";

/** The machine's load average (1 minute), as each figure is printed with it. */
export const load = () => `load ${loadavg()[0].toFixed(1)}`;
export const ms = (value) => `${value.toFixed(1)} ms`;

/**
 * `docklens node`s, `perProcess` to a process (bench/node-host.mjs), each node NAME over the
 * config of `configs[NAME]`; resolves once every one serves. `stop()` ends them all.
 */
export async function startNodes(natsUrl, configs, { perProcess = 25, heartbeat = 5 } = {}) {
  const names = Object.keys(configs);
  const hosts = [];
  for (let at = 0; at < names.length; at += perProcess) {
    const some = names.slice(at, at + perProcess);
    const host = spawn(
      process.execPath,
      [
        new URL("./node-host.mjs", import.meta.url).pathname,
        natsUrl,
        String(heartbeat),
        ...some.map((name) => `${name}=${configs[name]}`),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let said = "";
    host.stdout.on("data", (chunk) => (said += chunk));
    // Each node says when its link to NATS goes and comes back: the bench counts the time instead.
    host.stderr.on("data", (chunk) => {
      const lines = chunk.toString().split("\n");
      const kept = lines.filter((line) => line && !/: NATS link (lost|back)/.test(line));
      if (kept.length) process.stderr.write(`${kept.join("\n")}\n`);
    });
    hosts.push({ host, serving: () => said.split("\n").filter((l) => / serving /.test(l)).length });
    await Promise.race([
      (async () => {
        while (hosts.at(-1).serving() < some.length) await sleep(50);
      })(),
      once(host, "exit").then(() => {
        throw new Error("a node host ended");
      }),
    ]);
  }
  return {
    pids: hosts.map(({ host }) => host.pid),
    stop: async () => {
      await Promise.all(
        hosts.map(async ({ host }) => {
          if (host.exitCode !== null) return;
          host.kill("SIGTERM");
          await once(host, "exit");
        }),
      );
    },
  };
}

/**
 * Wait until the engines see no container inspect for 2 s: the mirrors (the nodes', the hub's)
 * have inspected what their lists left out. The ms that took.
 */
export async function settled(engines) {
  const start = performance.now();
  await engines.calls();
  for (;;) {
    await sleep(2000);
    const { calls } = await engines.calls();
    if (!Object.keys(calls).some((path) => /^\/containers\/\w+\/json$/.test(path)))
      return performance.now() - start;
  }
}

/** At least `count` clusters listed by the hub without an error. */
export async function clustersUp(url, count) {
  const body = await fetch(`${url}/list/cluster`)
    .then((response) => response.json())
    .catch(() => ({ clusters: [] }));
  return body.clusters.filter((cluster) => !cluster.error).length >= count;
}

/** NATS messages a second (into the server, out of it) over `forSeconds`. */
export async function natsRate(nats, forSeconds) {
  const before = await nats.varz();
  await sleep(forSeconds * 1000);
  const after = await nats.varz();
  const rate = (key) => ((after[key] - before[key]) / forSeconds).toFixed(0);
  return `${rate("in_msgs")} in, ${rate("out_msgs")} out a second`;
}

/** Follow `id`'s log through `url` until its `lines` lines came: lines a second. */
export async function followedLines(url, cluster, id, lines) {
  const controller = new AbortController();
  const start = performance.now();
  const response = await fetch(
    `${url}/detail/${cluster}/container/${id}/logs?follow=true&tail=all`,
    { signal: controller.signal },
  );
  if (response.status !== 200) throw new Error(`${cluster} logs: ${response.status}`);
  let seen = 0;
  for await (const chunk of response.body) {
    for (const byte of chunk) if (byte === 10) seen++;
    if (seen >= lines) break;
  }
  const rate = (seen / (performance.now() - start)) * 1000;
  controller.abort();
  return rate;
}

/** Every `hubs` reads as a dashboard tab might: its containers every 250 ms, clusters every 2 s. */
export async function readHubs(hubs, forSeconds) {
  const end = performance.now() + forSeconds * 1000;
  await Promise.all(
    hubs.map(async (hub) => {
      for (let i = 0; performance.now() < end; i++) {
        await timeToLastByte(`${hub.url}/list/containers`);
        if (i % 8 === 0) await timeToLastByte(`${hub.url}/list/cluster`);
        await sleep(250);
      }
    }),
  );
}

/** Median of `runs` timings of `make()` (each a number of ms). */
async function timings(make, count) {
  const all = [];
  for (let i = 0; i < count; i++) all.push(await make());
  return median(all);
}

/**
 * `/list/containers` and `/list/cluster` (medians of `runs`), the dashboard usable (as
 * bench/ui.mjs measures it: a first visit and a reload, medians of 3) and the RSS of `serve`,
 * printed as `name`'s.
 */
export async function measureServe(name, serve, { browser, total, idle, runs }) {
  const list = await timings(() => timeToLastByte(`${serve.url}/list/containers`), runs);
  const clusters = await timings(() => timeToLastByte(`${serve.url}/list/cluster`), runs);
  console.log(
    `  ${name}: /list/containers (gzip, to its last byte) ${ms(list)}, /list/cluster ` +
      `${ms(clusters)}, medians of ${runs} (${load()})`,
  );
  const visits = [];
  for (let run = 0; run < 3; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${serve.url}/#/containers`);
    const first = await usableAt(page, total);
    await page.reload();
    visits.push([first, await usableAt(page, total)]);
    await context.close();
  }
  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
  console.log(
    `  ${name}: dashboard usable, median of 3: first visit ${ms(median(visits.map((v) => v[0])))}` +
      `, reload ${ms(median(visits.map((v) => v[1])))} (goal <= 1500 ms; ${load()}); ` +
      `RSS ${mib(idle)} at start, ${mib(serve.rssKiB())} with ${total} containers`,
  );
}

/**
 * A viewer of `url`'s containers, as a dashboard tab is (`/list/containers?watch=true`, read
 * and dropped): while it is open, serve keeps its mirrors and their event streams. Returns its
 * close.
 */
export function holdWatch(url) {
  const controller = new AbortController();
  void fetch(`${url}/list/containers?watch=true`, { signal: controller.signal })
    .then((response) => response.arrayBuffer())
    .catch(() => {});
  return () => controller.abort();
}
