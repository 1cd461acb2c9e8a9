import {
  Counter,
  Gauge,
  Histogram,
  Registry as MetricsRegistry,
  collectDefaultMetrics,
} from "prom-client";
import { alertsOf, seenBy } from "../core/alerts/alerts.ts";
import { historyOf } from "../core/history/history.ts";
import { inspectCluster } from "../core/clusters/clusters.ts";
import { listAllContainers } from "../core/containers/containers.ts";
import { countEngineStreams } from "../core/engine/engine-stream.ts";
import { Coalescer } from "../core/flow.ts";
import type { Fleet } from "../core/engine/fleet.ts";
import { containerMetrics } from "./container-metrics.ts";

/** What `serve` counts of its own requests, by route template (never the raw path: label values stay few). */
export interface RequestMetrics {
  observe(route: string, status: number, seconds: number): void;
}

/** The metrics of one app: serve's own, kept as requests come, and the engines', read at each scrape. */
export interface Metrics extends RequestMetrics {
  /** The Prometheus text exposition of every metric, for the clusters `fleet` holds. */
  scrape(fleet: Fleet): Promise<string>;
  contentType: string;
}

/**
 * The metrics of `docklens serve`, built with prom-client. Engine figures come from one fan-out
 * per scrape (cluster info and every container list, each engine under its own time limit, so a
 * hanging one is `docklens_engine_up 0` once its limit passed); scrapes that arrive while one runs
 * share it, however many scrapers there are.
 */
export function createMetrics(): Metrics {
  const own = new MetricsRegistry();
  collectDefaultMetrics({ register: own });
  const requests = new Counter({
    name: "docklens_http_requests_total",
    help: "HTTP requests served, by route template and status",
    labelNames: ["route", "status"],
    registers: [own],
  });
  const durations = new Histogram({
    name: "docklens_http_request_duration_seconds",
    help: "Time to answer, by route template (streams: until they ended)",
    labelNames: ["route"],
    registers: [own],
  });
  new Gauge({
    name: "docklens_engine_streams_open",
    help: "Engine streams open (logs follow, stats stream, attach)",
    registers: [own],
    collect() {
      this.set(countEngineStreams());
    },
  });
  const shared = new Coalescer();
  return {
    contentType: own.contentType,
    observe(route, status, seconds) {
      requests.inc({ route, status: String(status) });
      durations.observe({ route }, seconds);
    },
    async scrape(fleet) {
      // One scrape's text per set of clusters in flight: a scoped token sees its own.
      const key = fleet.config.clusters.map((cluster) => cluster.id).join(",");
      return shared.run(
        key,
        async () =>
          (await own.metrics()) +
          (await engineMetrics(fleet).metrics()) +
          (await alertMetrics(fleet).metrics()) +
          (await historyMetrics(fleet).metrics()) +
          (await containerMetrics(fleet)),
      );
    },
  };
}

/** The engines' figures, per cluster, in a prom-client registry of their own, made for this scrape. */
function engineMetrics(fleet: Fleet): { metrics(): Promise<string> } {
  const out = new MetricsRegistry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames: ["cluster", ...labelNames], registers: [out] });
  const up = gauge(
    "docklens_engine_up",
    "1 when the cluster's engine answered the last scrape, else 0",
  );
  const info = gauge(
    "docklens_engine_info",
    "The engine's version and operating system; always 1",
    ["version", "os", "arch"],
  );
  const probe = gauge(
    "docklens_engine_probe_seconds",
    "How long the engine took to answer the scrape's info call",
  );
  const containers = gauge("docklens_containers", "Containers by state", ["state"]);
  const unhealthy = gauge("docklens_containers_unhealthy", "Containers whose health check fails");
  const images = gauge("docklens_images", "Images on the engine");
  const volumes = gauge("docklens_volumes", "Volumes on the engine");
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames: ["cluster", ...labelNames], registers: [out] });
  const calls = counter(
    "docklens_engine_calls_total",
    "Engine calls docklens has made since it started (a shared read counts once)",
  );
  const failures = counter(
    "docklens_engine_call_failures_total",
    "Engine calls that failed since docklens started, by error code",
    ["code"],
  );
  return {
    async metrics() {
      // Each cluster's info timed by itself: its probe time is its own engine's, not the slowest's.
      const probes = fleet.config.clusters.map(async (config) => {
        const started = performance.now();
        const detail = await inspectCluster(String(config.id), { fleet });
        return { config, detail, seconds: (performance.now() - started) / 1000 };
      });
      const [answers, all] = await Promise.all([Promise.all(probes), listAllContainers({ fleet })]);
      const live = new Set<string>();
      for (const { config, detail, seconds } of answers) {
        const cluster = config.name;
        const docker = detail.docker as {
          ServerVersion?: string;
          OperatingSystem?: string;
          Architecture?: string;
          Images?: number;
          Volumes?: number;
        };
        const slot = fleet.slot(config);
        up.set({ cluster }, detail.error ? 0 : 1);
        calls.inc({ cluster }, slot.calls);
        for (const [code, count] of slot.failures) failures.inc({ cluster, code }, count);
        if (detail.error) continue;
        live.add(cluster);
        probe.set({ cluster }, seconds);
        info.set(
          {
            cluster,
            version: docker.ServerVersion ?? "",
            os: docker.OperatingSystem ?? "",
            arch: docker.Architecture ?? "",
          },
          1,
        );
        images.set({ cluster }, docker.Images ?? 0);
        volumes.set({ cluster }, docker.Volumes ?? 0);
      }
      const failed = new Set(all.errors.map((error) => error.cluster.name));
      const byState = new Map<string, Map<string, number>>();
      for (const cluster of live)
        if (!failed.has(cluster)) byState.set(cluster, new Map(STATES.map((state) => [state, 0])));
      for (const container of all.containers) {
        const states = byState.get(container.cluster.name);
        states?.set(container.State, (states.get(container.State) ?? 0) + 1);
        if (/\(unhealthy\)/.test(container.Status))
          unhealthy.inc({ cluster: container.cluster.name });
      }
      for (const [cluster, states] of byState) {
        unhealthy.inc({ cluster }, 0);
        for (const [state, count] of states) containers.set({ cluster, state }, count);
      }
      return out.metrics();
    },
  };
}

/** Docker's container states: each is a series, 0 included, so a dashboard sees them all. */
const STATES = ["created", "running", "paused", "restarting", "removing", "exited", "dead"];

/**
 * The alerts of serve's rules (docs/guide/alerts.md): those firing, by rule and cluster (of the
 * clusters `fleet` holds), and the deliveries to each receiver by result.
 */
function alertMetrics(fleet: Fleet): MetricsRegistry {
  const out = new MetricsRegistry();
  const service = alertsOf(fleet);
  if (!service) return out;
  const firing = new Gauge({
    name: "docklens_alerts_firing",
    help: "Alerts firing now, by rule and cluster",
    labelNames: ["rule", "cluster"],
    registers: [out],
  });
  const deliveries = new Counter({
    name: "docklens_alert_deliveries_total",
    help: "Requests to alert receivers, by receiver and result (success, failure)",
    labelNames: ["receiver", "result"],
    registers: [out],
  });
  const dropped = new Counter({
    name: "docklens_alert_notices_dropped_total",
    help: "Alert notices dropped from a receiver's full queue, by receiver",
    labelNames: ["receiver"],
    registers: [out],
  });
  const lost = new Counter({
    name: "docklens_alert_lookup_failures_total",
    help: "Container events a rule lost because their container could not be read, by rule",
    labelNames: ["rule"],
    registers: [out],
  });
  const sees = seenBy(service, fleet);
  for (const rule of fleet.config.alerts?.rules ?? [])
    for (const cluster of fleet.config.clusters)
      firing.set({ rule: rule.name, cluster: cluster.name }, 0);
  for (const alert of service.list())
    if (alert.state === "firing" && sees(alert))
      firing.inc({ rule: alert.rule, cluster: alert.cluster?.name ?? "" });
  for (const { receiver, result, count } of service.deliveries())
    deliveries.inc({ receiver, result }, count);
  for (const { receiver, count } of service.dropped()) dropped.inc({ receiver }, count);
  for (const rule of fleet.config.alerts?.rules ?? []) lost.inc({ rule: rule.name }, 0);
  for (const { rule, count } of service.lookupFailures()) lost.inc({ rule }, count);
  return out;
}

/** History (D26): what it could not keep, and the bytes its store holds. */
function historyMetrics(fleet: Fleet): MetricsRegistry {
  const out = new MetricsRegistry();
  const status = historyOf(fleet)?.status();
  if (!status) return out;
  new Counter({
    name: "docklens_history_dropped_total",
    help: "Records history could not keep (its store failed, or its queue was full)",
    registers: [out],
  }).inc(status.dropped);
  new Gauge({
    name: "docklens_history_store_bytes",
    help: "Bytes the history store's file holds",
    registers: [out],
  }).set(status.bytes);
  return out;
}
