// Words and figures as the CLI shows them (src/cli/render): the page cannot import the CLI's
// code, so the few rules it needs are here again, small.
import type { ContainerItem } from "./types.ts";

/** A container's health from its docker ps status: `Up 3 minutes (unhealthy)`. */
export function healthOf(status: string): "healthy" | "unhealthy" | "starting" | "" {
  if (/\(unhealthy\)/.test(status)) return "unhealthy";
  if (/\(health: starting\)/.test(status)) return "starting";
  if (/\(healthy\)/.test(status)) return "healthy";
  return "";
}

/** The colour class of a state, as the CLI's colorState: red failed or unhealthy, yellow in between, green up. */
export function stateTone(state: string, status: string): "bad" | "warn" | "good" | "idle" {
  if (/\(unhealthy\)/.test(status)) return "bad";
  if (/\(health: starting\)|\(Paused\)/.test(status)) return "warn";
  if (state === "running") return "good";
  if (state === "paused" || state === "restarting" || state === "created") return "warn";
  const code = Number(/^Exited \((\d+)\)/.exec(status)?.[1] ?? 0);
  if (state === "dead" || (state === "exited" && code !== 0)) return "bad";
  return "idle";
}

/** A container's names without their leading `/`. */
export const nameOf = (container: Pick<ContainerItem, "Names">): string =>
  container.Names.map((name) => name.replace(/^\//, "")).join(",");

/** The compose project (or stack) of a container, '' for none. */
export const projectOf = (labels: Record<string, string> | null | undefined): string =>
  labels?.["com.docker.compose.project"] ?? labels?.["com.docker.stack.namespace"] ?? "";

/** Ports as docker ps words them, simplified: `127.0.0.1:8080->80/tcp, 9090/tcp`. */
export function formatPorts(ports: ContainerItem["Ports"] | null | undefined): string {
  const seen = new Set<string>();
  for (const port of [...(ports ?? [])].sort((a, b) => a.PrivatePort - b.PrivatePort)) {
    const host = port.IP?.includes(":") ? `[${port.IP}]` : port.IP;
    seen.add(
      port.PublicPort
        ? `${host}:${port.PublicPort}->${port.PrivatePort}/${port.Type}`
        : `${port.PrivatePort}/${port.Type}`,
    );
  }
  return [...seen].join(", ");
}

/** `3 minutes ago` for an ISO time. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const units: Array<[string, number]> = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of units)
    if (seconds >= size) {
      const count = Math.floor(seconds / size);
      return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
    }
  return `${seconds} seconds ago`;
}

/** Bytes as `1.5 MiB`. */
export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${unit ? size.toFixed(1) : size} ${units[unit]}`;
}

/** A short id: 12 hex digits, without `sha256:`. */
export const shortId = (id: string): string => id.replace(/^sha256:/, "").slice(0, 12);

/** A query value or parameter of the route as one string ('' when absent). */
export function queryString(value: unknown): string {
  return typeof value === "string" ? value : Array.isArray(value) ? String(value[0] ?? "") : "";
}
