// Delivery of notices, one queue per receiver: notices that come together go in one request;
// a request that fails is tried again with a doubling, jittered wait, as long as it takes, so a
// receiver down for a while gets its alerts late, once. A receiver that fails holds only its own
// queue, never the others'.
import { jittered } from "../hub/event-hub.ts";
import type { AlertNotice } from "./alert-book.ts";
import { receiverRequest, type ReadyReceiver } from "./receivers.ts";

/** How a delivery went, as `docklens_alert_deliveries_total{result}` counts it. */
export type DeliveryResult = "success" | "failure" | "dropped";

/** Options of {@link createDelivery}. */
export interface DeliveryOptions {
  /** Notices gathered this long before a request goes: a burst is one request. */
  groupWaitMs?: number;
  /** Waits between attempts: doubling from the first to the last. */
  backoffMs?: readonly [number, number];
  /** Time limit of one request. */
  timeoutMs?: number;
  /** Notices a receiver's queue holds at most; past it the oldest are dropped. */
  maxQueued?: number;
  /** Told of each failed attempt (serve logs it). */
  onFailure?: (receiver: string, message: string, retryInMs: number) => void;
}

/** Delivery to the receivers of the config. */
export interface Delivery {
  /** Queue `notices` for the receivers named. */
  send(receivers: readonly string[], notices: readonly AlertNotice[]): void;
  /** Requests made so far, by receiver and result. */
  counts(): Array<{ receiver: string; result: DeliveryResult; count: number }>;
  /** Stop: what is queued is not sent. */
  close(): void;
}

interface Queue {
  receiver: ReadyReceiver;
  pending: AlertNotice[];
  timer?: NodeJS.Timeout;
  sending: boolean;
  wait: number;
}

/** Queues for `receivers`, each sending as the module comment says. */
export function createDelivery(
  receivers: readonly ReadyReceiver[],
  options: DeliveryOptions = {},
): Delivery {
  const { groupWaitMs = 100, timeoutMs = 10_000, maxQueued = 1000 } = options;
  const [first, last] = options.backoffMs ?? [1000, 60_000];
  const counts = new Map<string, Map<DeliveryResult, number>>();
  const count = (receiver: string, result: DeliveryResult, by = 1) => {
    const byResult = counts.get(receiver) ?? new Map<DeliveryResult, number>();
    counts.set(receiver, byResult.set(result, (byResult.get(result) ?? 0) + by));
  };
  const queues = new Map<string, Queue>(
    receivers.map((receiver) => [
      receiver.name,
      { receiver, pending: [], sending: false, wait: first },
    ]),
  );
  let closed = false;

  const attempt = async (queue: Queue) => {
    queue.timer = undefined;
    if (closed || queue.sending || !queue.pending.length) return;
    queue.sending = true;
    const batch = queue.pending.slice();
    const request = receiverRequest(queue.receiver, batch);
    let problem: string | undefined;
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
      if (!response.ok) problem = `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      problem = cause ?? (error as Error).message;
    }
    queue.sending = false;
    if (closed) return;
    if (problem === undefined) {
      count(queue.receiver.name, "success");
      queue.pending.splice(0, batch.length);
      queue.wait = first;
      if (queue.pending.length) schedule(queue, groupWaitMs);
      return;
    }
    count(queue.receiver.name, "failure");
    const delay = jittered(queue.wait);
    queue.wait = Math.min(queue.wait * 2, last);
    options.onFailure?.(queue.receiver.name, problem, delay);
    schedule(queue, delay);
  };

  const schedule = (queue: Queue, delay: number) => {
    if (queue.timer || queue.sending) return;
    queue.timer = setTimeout(() => void attempt(queue), delay);
    queue.timer.unref();
  };

  return {
    send(names, notices) {
      if (closed || !notices.length) return;
      for (const name of names) {
        const queue = queues.get(name);
        if (!queue) continue;
        queue.pending.push(...notices);
        const over = queue.pending.length - maxQueued;
        if (over > 0) {
          queue.pending.splice(0, over);
          count(name, "dropped", over);
        }
        schedule(queue, groupWaitMs);
      }
    },
    counts() {
      return [...counts].flatMap(([receiver, byResult]) =>
        [...byResult].map(([result, n]) => ({ receiver, result, count: n })),
      );
    },
    close() {
      closed = true;
      for (const queue of queues.values()) clearTimeout(queue.timer);
    },
  };
}
