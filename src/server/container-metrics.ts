import { Counter, Gauge, Registry as MetricsRegistry } from "prom-client";
import { toMetricsConfig } from "../core/config/metrics-schema.ts";
import { historyOf } from "../core/history/history.ts";
import type { LatestSample } from "../core/history/latest-stats.ts";
import type { Fleet } from "../core/engine/fleet.ts";

/** The labels of every per-container series: cAdvisor's (`name`, `id`, `image`), and ours. */
const LABELS = ["cluster", "name", "id", "image", "project", "service"] as const;

/** Each series: cAdvisor's name, its kind, its help, and the figure of a sample it shows. */
const SERIES: Array<[string, "counter" | "gauge", string, (sample: LatestSample) => number]> = [
  [
    "container_cpu_usage_seconds_total",
    "counter",
    "Cumulative CPU time consumed, in seconds",
    (s) => s.cpuSeconds,
  ],
  [
    "container_memory_usage_bytes",
    "gauge",
    "Current memory usage, page cache included, in bytes",
    (s) => s.memoryUsage,
  ],
  [
    "container_memory_working_set_bytes",
    "gauge",
    "Current working set (usage less the inactive page cache), in bytes",
    (s) => s.workingSet,
  ],
  [
    "container_spec_memory_limit_bytes",
    "gauge",
    "Memory limit as the engine reports it (the host's memory when none is set), in bytes",
    (s) => s.memoryLimit,
  ],
  [
    "container_network_receive_bytes_total",
    "counter",
    "Cumulative bytes received, over all interfaces",
    (s) => s.netRx,
  ],
  [
    "container_network_transmit_bytes_total",
    "counter",
    "Cumulative bytes transmitted, over all interfaces",
    (s) => s.netTx,
  ],
  [
    "container_fs_reads_bytes_total",
    "counter",
    "Cumulative bytes read, over all block devices",
    (s) => s.blockRead,
  ],
  [
    "container_fs_writes_bytes_total",
    "counter",
    "Cumulative bytes written, over all block devices",
    (s) => s.blockWrite,
  ],
  [
    "container_processes",
    "gauge",
    "Number of processes running inside the container",
    (s) => s.pids,
  ],
  [
    "container_last_seen",
    "gauge",
    "Last time the container was sampled, in Unix seconds",
    (s) => s.time / 1000,
  ],
];

/**
 * cAdvisor's series of each running container of the clusters `fleet` holds, from the last stats
 * sample history's recorder took of it (no engine is asked): none when history is off or the
 * config's `metrics.containers` is `false`; none either, and `docklens_container_series_omitted`
 * says how many were left out, when there are more containers than `metrics.containers.max`.
 */
export function containerMetrics(fleet: Fleet): MetricsRegistry {
  const out = new MetricsRegistry();
  const settings = (fleet.config.metrics ?? toMetricsConfig(undefined)).containers;
  const history = historyOf(fleet);
  if (!settings || !history) return out;
  const clusters = fleet.config.clusters.flatMap((cluster) => {
    const latest = history.latest(cluster.id);
    return latest ? [{ cluster: cluster.name, latest }] : [];
  });
  const count = clusters.reduce((sum, { latest }) => sum + latest.size, 0);
  new Gauge({
    name: "docklens_container_series_omitted",
    help: "Running containers whose series this scrape left out: more than metrics.containers.max",
    registers: [out],
  }).set(count > settings.max ? count : 0);
  if (count > settings.max) return out;
  type Labels = Record<(typeof LABELS)[number], string>;
  const made = SERIES.map(([name, kind, help, figure]) => {
    const options = { name, help, labelNames: LABELS, registers: [out] };
    // A counter's value is the engine's cumulative figure, written once in this scrape's registry.
    if (kind === "counter") {
      const counter = new Counter(options);
      return { figure, write: (labels: Labels, value: number) => counter.inc(labels, value) };
    }
    const gauge = new Gauge(options);
    return { figure, write: (labels: Labels, value: number) => gauge.set(labels, value) };
  });
  for (const { cluster, latest } of clusters)
    for (const sample of latest.values()) {
      const { name, id, image, project, service } = sample;
      const labels = { cluster, name, id, image, project, service };
      for (const { write, figure } of made) write(labels, figure(sample));
    }
  return out;
}
