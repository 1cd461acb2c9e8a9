// Delivery of notices, one queue per receiver, grouped as Alertmanager groups: a rule's notices
// are one group, sent together a short wait after its first notice, then at most once per the
// rule's group interval, each request carrying the alerts that changed since (an alert's latest
// state: one that fired and resolved meanwhile is told resolved). So a burst over 12,000
// containers is one request per rule and interval, not one per event. A request that fails is
// tried again with a doubling, jittered wait, as long as it takes, so a receiver down for a while
// gets its alerts late, once. A receiver that fails holds only its own queue, never the others'.
// A queue holds `maxQueued` alerts at most: past it the oldest are dropped, counted and logged.
import { jittered } from "../hub/event-hub.ts";
import type { AlertNotice } from "./alert-book.ts";
import { onceEvery } from "./once-every.ts";
import { receiverRequest, type ReadyReceiver } from "./receivers.ts";

/** How a request went, as `docklens_alert_deliveries_total{result}` counts it. */
export type DeliveryResult = "success" | "failure";

/** Options of {@link createDelivery}. */
export interface DeliveryOptions {
  /** A group's first notices are gathered this long before its request goes. */
  groupWaitMs?: number;
  /** Then its requests go this often at most (by rule name, when a function). */
  groupIntervalMs?: number | ((rule: string) => number);
  /** Waits between attempts: doubling from the first to the last. */
  backoffMs?: readonly [number, number];
  /** Time limit of one request. */
  timeoutMs?: number;
  /** Alerts a receiver's queue holds at most; past it the oldest are dropped. */
  maxQueued?: number;
  /** Told of each failed attempt (serve logs it). */
  onFailure?: (receiver: string, message: string, retryInMs: number) => void;
  /** Told of the notices a receiver dropped, once a minute at most (serve logs it). */
  onDropped?: (receiver: string, count: number) => void;
}

/** Delivery to the receivers of the config. */
export interface Delivery {
  /** Queue `notices` for the receivers named, each in its rule's group. */
  send(receivers: readonly string[], notices: readonly AlertNotice[]): void;
  /** Requests made so far, by receiver and result. */
  counts(): Array<{ receiver: string; result: DeliveryResult; count: number }>;
  /** Notices dropped so far from full queues, by receiver. */
  dropped(): Array<{ receiver: string; count: number }>;
  /** Stop: what is queued is not sent. */
  close(): void;
}

interface Group {
  /** The latest notice of each alert changed since the last request, oldest first. */
  pending: Map<string, AlertNotice>;
  /** When its next request may go, while it has pending notices. */
  dueAt: number;
  lastSent?: number;
}

interface Queue {
  receiver: ReadyReceiver;
  groups: Map<string, Group>;
  size: number;
  timer?: NodeJS.Timeout;
  sending: boolean;
  /** While set, the receiver is failing: nothing goes before it. */
  retryAt?: number;
  wait: number;
  dropped: number;
  logDropped: (count: number) => void;
}

/** Drops are logged this often at most, per receiver. */
const DROP_LOG_MS = 60_000;

/** Queues for `receivers`, each sending as the module comment says. */
export function createDelivery(
  receivers: readonly ReadyReceiver[],
  options: DeliveryOptions = {},
): Delivery {
  const { groupWaitMs = 100, timeoutMs = 10_000, maxQueued = 20_000 } = options;
  const intervalOf = (rule: string) => {
    const interval = options.groupIntervalMs ?? 10_000;
    return typeof interval === "number" ? interval : interval(rule);
  };
  const [first, last] = options.backoffMs ?? [1000, 60_000];
  const counts = new Map<string, Map<DeliveryResult, number>>();
  const count = (receiver: string, result: DeliveryResult) => {
    const byResult = counts.get(receiver) ?? new Map<DeliveryResult, number>();
    counts.set(receiver, byResult.set(result, (byResult.get(result) ?? 0) + 1));
  };
  const timers: Array<() => void> = [];
  const queues = new Map<string, Queue>(
    receivers.map((receiver) => {
      const log = onceEvery(DROP_LOG_MS, (n: number) => options.onDropped?.(receiver.name, n));
      timers.push(log.close);
      return [
        receiver.name,
        {
          receiver,
          groups: new Map(),
          size: 0,
          sending: false,
          wait: first,
          dropped: 0,
          logDropped: log.add,
        },
      ];
    }),
  );
  let closed = false;

  /** One request: the group's pending notices; on success they leave it, unless changed since. */
  const post = async (queue: Queue, group: Group): Promise<string | undefined> => {
    const batch = [...group.pending];
    const request = receiverRequest(
      queue.receiver,
      batch.map(([, notice]) => notice),
    );
    try {
      const response = await fetch(request.url, {
        method: "POST",
        headers: request.headers,
        body: request.body,
        // A receiver's redirect would send the alert where the config did not say.
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) return `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return cause ?? (error as Error).message;
    }
    for (const [id, notice] of batch)
      if (group.pending.get(id) === notice) {
        group.pending.delete(id);
        queue.size--;
      }
    return undefined;
  };

  const attempt = async (queue: Queue) => {
    queue.timer = undefined;
    if (closed || queue.sending) return;
    queue.sending = true;
    let problem: string | undefined;
    for (const [rule, group] of queue.groups) {
      const now = Date.now();
      if (!group.pending.size || group.dueAt > now) continue;
      problem = await post(queue, group);
      if (closed) return;
      if (problem !== undefined) break;
      count(queue.receiver.name, "success");
      group.lastSent = Date.now();
      // Kept when empty (one per rule): its next notice waits for the interval.
      group.dueAt = group.lastSent + intervalOf(rule);
    }
    queue.sending = false;
    if (problem === undefined) {
      queue.wait = first;
      queue.retryAt = undefined;
    } else {
      count(queue.receiver.name, "failure");
      const delay = jittered(queue.wait);
      queue.wait = Math.min(queue.wait * 2, last);
      queue.retryAt = Date.now() + delay;
      options.onFailure?.(queue.receiver.name, problem, delay);
    }
    schedule(queue);
  };

  /** Wake the queue when its next group is due (or its receiver may be tried again). */
  const schedule = (queue: Queue) => {
    if (closed || queue.sending) return;
    let due = Infinity;
    for (const group of queue.groups.values())
      if (group.pending.size) due = Math.min(due, group.dueAt);
    if (due === Infinity) return;
    due = Math.max(due, queue.retryAt ?? 0);
    clearTimeout(queue.timer);
    queue.timer = setTimeout(() => void attempt(queue), Math.max(0, due - Date.now()));
    queue.timer.unref();
  };

  /** Drop the oldest notices past the bound, counted and logged. */
  const bound = (queue: Queue) => {
    let over = queue.size - maxQueued;
    if (over <= 0) return;
    queue.dropped += over;
    queue.logDropped(over);
    for (const group of queue.groups.values())
      for (const id of group.pending.keys()) {
        if (over-- <= 0) return;
        group.pending.delete(id);
        queue.size--;
      }
  };

  return {
    send(names, notices) {
      if (closed || !notices.length) return;
      const now = Date.now();
      for (const name of names) {
        const queue = queues.get(name);
        if (!queue) continue;
        for (const notice of notices) {
          const rule = notice.alert.rule;
          let group = queue.groups.get(rule);
          if (!group) queue.groups.set(rule, (group = { pending: new Map(), dueAt: 0 }));
          if (!group.pending.size)
            group.dueAt = Math.max(now + groupWaitMs, (group.lastSent ?? 0) + intervalOf(rule));
          const id = notice.alert.id;
          // The latest state of an alert, in the place of its newest change.
          if (group.pending.delete(id)) queue.size--;
          group.pending.set(id, notice);
          queue.size++;
        }
        bound(queue);
        schedule(queue);
      }
    },
    counts() {
      return [...counts].flatMap(([receiver, byResult]) =>
        [...byResult].map(([result, n]) => ({ receiver, result, count: n })),
      );
    },
    dropped() {
      return [...queues.values()].map((queue) => ({
        receiver: queue.receiver.name,
        count: queue.dropped,
      }));
    },
    close() {
      closed = true;
      for (const queue of queues.values()) clearTimeout(queue.timer);
      for (const stop of timers) stop();
    },
  };
}
