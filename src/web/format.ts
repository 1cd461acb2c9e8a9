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

/** `3 minutes ago` for an ISO time (or milliseconds since the epoch). */
export function timeAgo(iso: string | number, now = Date.now()): string {
  const at = typeof iso === "number" ? iso : Date.parse(iso);
  const seconds = Math.max(0, Math.round((now - at) / 1000));
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

// humanSize lives in sizes.ts with the other sizes; named here too for test/unit/web-format.test.ts.
export { humanSize } from "./sizes.ts";

/** A short id: 12 hex digits, without `sha256:`. */
export const shortId = (id: string): string => id.replace(/^sha256:/, "").slice(0, 12);

/** A query value or parameter of the route as one string ('' when absent). */
export function queryString(value: unknown): string {
  return typeof value === "string" ? value : Array.isArray(value) ? String(value[0] ?? "") : "";
}

/**
 * The words of docker ps's STATUS that colour a badge, from an inspect body's `State`: the
 * container page then colours its badge as the list does (`Exited (3)` red, `(unhealthy)` red).
 */
export function containerStatus(state: {
  Status: string;
  ExitCode?: number;
  Paused?: boolean;
  Health?: { Status?: string } | null;
}): string {
  if (state.Status === "exited") return `Exited (${state.ExitCode ?? 0})`;
  const health = state.Health?.Status;
  if (state.Paused) return "Up (Paused)";
  if (health === "starting") return "Up (health: starting)";
  if (health === "healthy" || health === "unhealthy") return `Up (${health})`;
  return state.Status === "running" ? "Up" : state.Status;
}

const two = (n: number) => String(n).padStart(2, "0");

/** A moment as `2026-11-25 01:56:03`, local time, 24-hour, with its date: for the events view. */
export function eventTime(date: Date): string {
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

/** A moment (Unix seconds) as `13:05:09`, local time: the stats graph's time axis. */
export const clockTime = (seconds: number): string => {
  const date = new Date(seconds * 1000);
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
};

/** The stats graph's ticks, in the form uPlot asks for their labels. */
export const clockTicks = (_chart: unknown, ticks: number[]): string[] => ticks.map(clockTime);

/** The steps between the stats graph's time ticks, in seconds: whole ones, never 0.2 s. */
export const TIME_STEPS = [1, 5, 10, 15, 30, 60, 120, 300];
