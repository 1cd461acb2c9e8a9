// A container list item's `Status` ("Up 5 minutes (healthy)"), derived from the container's
// state times exactly as the engine derives it when it lists: Docker's `State.String()`
// (moby, container/state.go) and Podman's compat list (`LibpodToContainer`, pkg/api/handlers/
// compat/containers.go), both over go-units' `HumanDuration`. The mirror keeps the times and
// derives the text when it serves, so the text never goes stale.

/** What of an inspect body's `State` the text is made of. */
export interface StateTimes {
  Status?: string;
  Running?: boolean;
  Paused?: boolean;
  Restarting?: boolean;
  Dead?: boolean;
  ExitCode?: number;
  StartedAt?: string;
  FinishedAt?: string;
  Health?: { Status?: string } | null;
}

/** Which engine's wording: Podman's compat list words some states otherwise than Docker. */
export type StatusWording = "docker" | "podman";

/**
 * go-units' `HumanDuration`: "Less than a second", "1 second", "N seconds", "About a minute",
 * "N minutes", "About an hour", "N hours", "N days", "N weeks", "N months", "N years".
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < 1) return "Less than a second";
  if (seconds === 1) return "1 second";
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes === 1) return "About a minute";
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.trunc(ms / 3_600_000 + 0.5);
  if (hours === 1) return "About an hour";
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(Math.trunc(ms / 3_600_000) / 24 / 365)} years`;
}

/** Go's zero time, as the engines write a time never set. */
const ZERO = /^0001-01-01T00:00:00/;

function since(time: string | undefined, now: number): number | undefined {
  if (!time || ZERO.test(time)) return undefined;
  const at = Date.parse(time);
  return Number.isNaN(at) ? undefined : now - at;
}

/**
 * The list item's `Status` of a container in `state` at `now` (ms), in the engine's words.
 * @example
 * ```ts
 * statusText({ Running: true, StartedAt: "2026-11-25T02:00:00Z", Health: { Status: "healthy" } },
 *   "docker", Date.parse("2026-11-25T02:05:30Z")); // "Up 5 minutes (healthy)"
 * ```
 */
export function statusText(state: StateTimes, wording: StatusWording, now: number): string {
  const up = since(state.StartedAt, now);
  const down = since(state.FinishedAt, now);
  return wording === "podman" ? podmanText(state, up, down) : dockerText(state, up, down);
}

function dockerText(state: StateTimes, up: number | undefined, down: number | undefined): string {
  if (state.Running) {
    if (state.Paused) return `Up ${humanDuration(up ?? 0)} (Paused)`;
    if (state.Restarting)
      return `Restarting (${state.ExitCode ?? 0}) ${humanDuration(down ?? 0)} ago`;
    const health = state.Health?.Status;
    if (health)
      return `Up ${humanDuration(up ?? 0)} (${health === "starting" ? "health: starting" : health})`;
    return `Up ${humanDuration(up ?? 0)}`;
  }
  if (state.Status === "removing") return "Removal In Progress";
  if (state.Dead) return "Dead";
  if (up === undefined) return "Created";
  if (down === undefined) return "";
  return `Exited (${state.ExitCode ?? 0}) ${humanDuration(down)} ago`;
}

function podmanText(state: StateTimes, up: number | undefined, down: number | undefined): string {
  switch (state.Status) {
    case "configured":
    case "created":
      return "Created";
    case "stopped":
    case "exited":
      return `Exited (${state.ExitCode ?? 0}) ${humanDuration(down ?? 0)} ago`;
    case "running":
      return `Up ${humanDuration(up ?? 0)}`;
    case "paused":
      return `Up ${humanDuration(up ?? 0)} (Paused)`;
    case "removing":
      return "Removal In Progress";
    case "stopping":
      return "Stopping";
    default:
      return "Unknown";
  }
}

/**
 * The first moment after `now` at which {@link statusText} may change for `state`: a served
 * body holding the text stays exact until then. Conservative: at the latest the next whole second
 * in the first minute, the next minute in the first hour, then the next half hour.
 */
export function nextStatusChange(state: StateTimes, now: number): number {
  const times = [state.StartedAt, state.FinishedAt]
    .map((time) => (time && !ZERO.test(time) ? Date.parse(time) : NaN))
    .filter((at) => !Number.isNaN(at) && at <= now);
  let next = Infinity;
  for (const at of times) {
    const elapsed = now - at;
    const step = elapsed < 60_000 ? 1000 : elapsed < 3_600_000 ? 60_000 : 1_800_000;
    next = Math.min(next, at + (Math.floor(elapsed / step) + 1) * step);
  }
  return next;
}
