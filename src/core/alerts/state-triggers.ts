// The rules on a container's state, read two ways: from an engine event as it comes (serve), and
// from a container list (serve's first list and after a gap; `docklens alerts`).
import type { EngineEvent } from "../hub/event-hub.ts";
import type { AlertTrigger } from "../config/alert-triggers.ts";
import type { AlertRule } from "../config/alerts-schema.ts";

/** The triggers on one container's state. */
export const STATE_TRIGGERS: ReadonlySet<AlertTrigger> = new Set([
  "exited",
  "oom",
  "unhealthy",
  "restarting",
]);

/** What an event means for a rule: its condition seen (with its cause), ended, or nothing. */
export type EventVerdict =
  | { fire: { cause: string; value?: number | string } }
  | { resolve: true }
  | { died: true }
  | undefined;

/** A container event's action, and its container's id, when it is one. */
export function containerAction(
  event: EngineEvent,
): { action: string; id: string; attributes: Record<string, string> } | undefined {
  if (event.Type !== "container" || typeof event.Action !== "string") return undefined;
  const actor = (event.Actor ?? {}) as { ID?: unknown; Attributes?: Record<string, string> };
  if (typeof actor.ID !== "string") return undefined;
  return { action: event.Action, id: actor.ID, attributes: actor.Attributes ?? {} };
}

/** `healthy`, `unhealthy`, `starting`: Docker says it in the action, Podman in an attribute. */
function healthOf(action: string, attributes: Record<string, string>): string | undefined {
  if (action.startsWith("health_status:")) return action.slice("health_status:".length).trim();
  if (action === "health_status") return attributes.health_status;
  return undefined;
}

/** What container event `action` means for a rule that triggers `when`. */
export function eventVerdict(
  when: AlertTrigger,
  action: string,
  attributes: Record<string, string>,
): EventVerdict {
  const ended = action === "destroy";
  switch (when) {
    case "exited": {
      if (action === "die") {
        const code = Number(attributes.exitCode ?? 0);
        return code === 0
          ? { resolve: true }
          : { fire: { cause: `exited with code ${code}`, value: code } };
      }
      return ended || action === "start" ? { resolve: true } : undefined;
    }
    case "oom":
      if (action === "oom") return { fire: { cause: "killed: out of memory" } };
      return ended || action === "start" ? { resolve: true } : undefined;
    case "unhealthy": {
      const health = healthOf(action, attributes);
      if (health === "unhealthy") return { fire: { cause: "health check failing" } };
      return health === "healthy" || ended || action === "die" ? { resolve: true } : undefined;
    }
    case "restarting":
      if (action === "die") return { died: true };
      return ended ? { resolve: true } : undefined;
    default:
      return undefined;
  }
}

/** The item fields a list rule reads. */
interface ListedState {
  State: string;
  Status: string;
}

/**
 * Whether a listed container shows the condition of `when` now, and its cause. `oom` needs each
 * container's inspect body: a list cannot tell it, only the event.
 */
export function listedVerdict(
  when: AlertTrigger,
  item: ListedState,
): { cause: string; value?: number } | undefined {
  if (when === "exited" && item.State === "exited") {
    const code = Number(/^Exited \((-?\d+)\)/.exec(item.Status)?.[1] ?? 0);
    return code === 0 ? undefined : { cause: `exited with code ${code}`, value: code };
  }
  if (when === "unhealthy" && /\(unhealthy\)/.test(item.Status))
    return { cause: "health check failing" };
  if (when === "restarting" && item.State === "restarting") return { cause: "restarting" };
  return undefined;
}

/**
 * A restart loop: a container's deaths (`times`, ms) with one more at `now`, those within the
 * rule's window kept; and the loop's cause once they are enough.
 */
export function restartLoop(
  rule: Pick<AlertRule, "windowMs" | "restarts">,
  times: readonly number[],
  now: number,
): { times: number[]; cause?: { cause: string; value: number } } {
  const kept = [...times, now].filter((time) => time > now - rule.windowMs);
  if (kept.length < rule.restarts) return { times: kept };
  const cause = `restarted ${kept.length} times in ${Math.round(rule.windowMs / 1000)} s`;
  return { times: kept, cause: { cause, value: kept.length } };
}
