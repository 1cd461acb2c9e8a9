// The evaluation state machine of alerts, pure (no timers, no I/O: the caller says what time it
// is): a condition seen fires its alert once; seen again while firing it only refreshes it; its
// end resolves it once, after a cooldown in which the condition may come back without a word.
// So a burst of 1,000 matching lines is one notice, and a flapping container is not a storm.
import { createHash } from "node:crypto";
import type { ClusterRef } from "../engine/across-clusters.ts";
import type { AlertTrigger } from "../config/alert-triggers.ts";

/** An alert as `GET /alerts` and the receivers get it (docs/guide/alerts.md). */
export interface Alert {
  /** A stable fingerprint of rule, cluster, container and subject: the same alert, the same id. */
  id: string;
  rule: string;
  when: AlertTrigger;
  state: "firing" | "resolved";
  cluster: ClusterRef | null;
  container: { id: string; name: string } | null;
  /** What happened, in words: the exit code, the matching line, the value. */
  cause: string;
  /** The figure the rule compared, when it has one (exit code, percentage). */
  value?: number | string;
  /** ISO times: when the condition began, and (resolved) when it ended. */
  startsAt: string;
  endsAt?: string;
  /** The page's view of what the alert is about. */
  link: string;
}

/** What a rule says it saw: the alert's subject and cause. */
export interface AlertCondition {
  rule: string;
  when: AlertTrigger;
  cluster: ClusterRef | null;
  container: { id: string; name: string } | null;
  /** What besides the container tells alerts of one rule apart (an image reference, a service). */
  subject?: string;
  cause: string;
  value?: number | string;
  link: string;
  /** ISO time the condition began, when the container says it (a death's `State.FinishedAt`). */
  startsAt?: string;
}

/** How a rule's alerts end. */
export interface AlertTiming {
  /** A condition that comes back this soon after its end keeps the alert firing, unsaid. */
  cooldownMs: number;
  /** The alert ends by itself when not seen again for this long (log lines); never unset. */
  resolveAfterMs?: number;
}

/** A change a receiver is told of. */
export interface AlertNotice {
  alert: Alert;
  /** The subject, for receivers whose labels tell alerts apart (Alertmanager). */
  subject?: string;
}

interface Entry {
  alert: Alert;
  subject?: string;
  timing: AlertTiming;
  /** When it ends by itself unless seen again. */
  quietAt?: number;
  /** When its end is told, unless the condition comes back first; and when the condition ended. */
  resolveAt?: number;
  endedAt?: number;
}

/** The id of the alert of `condition`. */
export function alertId(
  condition: Pick<AlertCondition, "rule" | "cluster" | "container" | "subject">,
): string {
  const parts = [
    condition.rule,
    condition.cluster?.id ?? "",
    condition.container?.id ?? "",
    condition.subject ?? "",
  ];
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 16);
}

/** How long a resolved alert is kept (and listed by `GET /alerts`). */
export const KEEP_RESOLVED_MS = 3_600_000;

/** The order of `GET /alerts`: firing first, the newest first. */
export function compareAlerts(a: Alert, b: Alert): number {
  return (
    Number(b.state === "firing") - Number(a.state === "firing") ||
    b.startsAt.localeCompare(a.startsAt)
  );
}

/** Firing alerts and those resolved lately, and the notices their changes make. */
export class AlertBook {
  readonly #entries = new Map<string, Entry>();

  /** Resolved alerts are kept this long, and this many at most. */
  constructor(
    private readonly keepResolvedMs = KEEP_RESOLVED_MS,
    private readonly maxResolved = 500,
  ) {}

  /** `condition` is true at `now`: a notice when that starts an alert, else none. */
  fire(condition: AlertCondition, timing: AlertTiming, now: number): AlertNotice | undefined {
    const id = alertId(condition);
    const entry = this.#entries.get(id);
    const quietAt = timing.resolveAfterMs === undefined ? undefined : now + timing.resolveAfterMs;
    if (entry?.alert.state === "firing") {
      entry.quietAt = quietAt;
      entry.resolveAt = entry.endedAt = undefined;
      return undefined;
    }
    const { subject, startsAt, ...fields } = condition;
    const alert: Alert = {
      id,
      ...fields,
      state: "firing",
      startsAt: startsAt ?? new Date(now).toISOString(),
    };
    this.#entries.set(id, { alert, timing, quietAt, ...(subject ? { subject } : {}) });
    return notice({ alert, subject });
  }

  /** The condition of alert `id` ended at `now`: its end is told after the cooldown ({@link tick}). */
  resolve(id: string, now: number): AlertNotice | undefined {
    const entry = this.#entries.get(id);
    if (entry?.alert.state !== "firing" || entry.resolveAt !== undefined) return undefined;
    entry.endedAt = now;
    entry.resolveAt = now + entry.timing.cooldownMs;
    // This entry alone: a tick of the whole book per resolve cost serve a quarter of its CPU at
    // 500 events/s over thousands of alerts.
    return entry.resolveAt <= now ? ended(entry, now) : undefined;
  }

  /** Alerts of `rule` firing now (of `cluster` alone, when given), for what ends them by absence. */
  firingOf(rule: string, clusterId?: number): Alert[] {
    return this.firing().filter(
      (alert) =>
        alert.rule === rule && (clusterId === undefined || alert.cluster?.id === clusterId),
    );
  }

  /** The ends due at `now`: alerts quiet long enough, and cooldowns over. */
  tick(now: number): AlertNotice[] {
    const told: AlertNotice[] = [];
    for (const entry of this.#entries.values()) {
      const { alert } = entry;
      if (alert.state !== "firing") continue;
      if (entry.resolveAt === undefined && entry.quietAt !== undefined && entry.quietAt <= now) {
        entry.endedAt = entry.quietAt;
        entry.resolveAt = entry.quietAt + entry.timing.cooldownMs;
      }
      if (entry.resolveAt === undefined || entry.resolveAt > now) continue;
      told.push(ended(entry, now));
    }
    this.#prune(now);
    return told;
  }

  /** When {@link tick} has something to do next, if ever. */
  nextDue(): number | undefined {
    let due: number | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.alert.state !== "firing") continue;
      const at = entry.resolveAt ?? entry.quietAt;
      if (at !== undefined && (due === undefined || at < due)) due = at;
    }
    return due;
  }

  /** Every alert kept, firing first, the newest first. */
  list(): Alert[] {
    return [...this.#entries.values()].map((entry) => entry.alert).sort(compareAlerts);
  }

  /** The alerts firing now. */
  firing(): Alert[] {
    return this.list().filter((alert) => alert.state === "firing");
  }

  /** The subject of alert `id`, for receivers that label it. */
  subjectOf(id: string): string | undefined {
    return this.#entries.get(id)?.subject;
  }

  #prune(now: number): void {
    const resolved = [...this.#entries.values()].filter(
      (entry) => entry.alert.state === "resolved",
    );
    const over = resolved.length - this.maxResolved;
    resolved
      .sort((a, b) => (a.alert.endsAt ?? "").localeCompare(b.alert.endsAt ?? ""))
      .forEach((entry, index) => {
        if (index < over || Date.parse(entry.alert.endsAt!) + this.keepResolvedMs <= now)
          this.#entries.delete(entry.alert.id);
      });
  }
}

/** Alert of `entry` resolved: its notice. */
function ended(entry: Entry, now: number): AlertNotice {
  entry.alert.state = "resolved";
  entry.alert.endsAt = new Date(entry.endedAt ?? now).toISOString();
  return notice(entry);
}

/** A notice of the alert as it is now: later changes do not reach a notice queued. */
function notice(entry: { alert: Alert; subject?: string | undefined }): AlertNotice {
  return { alert: { ...entry.alert }, ...(entry.subject ? { subject: entry.subject } : {}) };
}
