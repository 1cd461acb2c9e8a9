import { Gauge, Registry as MetricsRegistry } from "prom-client";
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
 * sample history's recorder took of it (no engine is asked), in Prometheus' text format: none
 * when history is off or the config's `metrics.containers` is `false`; none either, and
 * `docklens_container_series_omitted` says how many were left out, when there are more
 * containers than `metrics.containers.max`.
 */
export async function containerMetrics(fleet: Fleet): Promise<string> {
  const settings = (fleet.config.metrics ?? toMetricsConfig(undefined)).containers;
  const history = historyOf(fleet);
  if (!settings || !history) return "";
  const clusters = fleet.config.clusters.flatMap((cluster) => {
    const latest = history.latest(cluster.id);
    return latest ? [{ cluster: cluster.name, latest }] : [];
  });
  const count = clusters.reduce((sum, { latest }) => sum + latest.size, 0);
  const own = new MetricsRegistry();
  new Gauge({
    name: "docklens_container_series_omitted",
    help: "Running containers whose series this scrape left out: more than metrics.containers.max",
    registers: [own],
  }).set(count > settings.max ? count : 0);
  const text = await own.metrics();
  if (count > settings.max) return text;
  // Written here, not through prom-client: its labelled gauges cost 12,000 containers' scrape
  // 0.5-0.6 s and ~290 MB of RSS more (bench/results/2026-12-07-container-metrics.md); each
  // container's labels are escaped once here and shared by its ten series.
  const samples = clusters.flatMap(({ cluster, latest }) =>
    [...latest.values()].map((sample) => ({ sample, labels: labelsOf(cluster, sample) })),
  );
  let out = text;
  for (const [name, kind, help, figure] of SERIES) {
    out += `# HELP ${name} ${help}\n# TYPE ${name} ${kind}\n`;
    for (const { sample, labels } of samples) out += `${name}${labels} ${figure(sample)}\n`;
  }
  return out;
}

/** A container's labels as the text format writes them: `{cluster="a",...}`. */
function labelsOf(cluster: string, sample: LatestSample): string {
  const { name, id, image, project, service } = sample;
  const values = { cluster, name, id, image, project, service };
  return `{${LABELS.map((label) => `${label}="${escapeLabel(values[label])}"`).join(",")}}`;
}

/** A label value escaped as the text format says: backslash, double quote and line feed. */
function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (char) => (char === "\n" ? "\\n" : `\\${char}`));
}
