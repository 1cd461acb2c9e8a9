/** When a line was written: milliseconds since the epoch, then nanoseconds within the millisecond. */
export type TimeKey = readonly [number, number];

/**
 * The sort key of an RFC 3339 time with up to nine fractional digits (the engines stamp lines
 * with nanoseconds, which a Date drops); `null` sorts first.
 */
export function timeKey(time: string | null): TimeKey {
  if (time === null) return [-Infinity, 0];
  const fraction = /\.(\d+)/.exec(time)?.[1] ?? "";
  return [Date.parse(time), Number(fraction.padEnd(9, "0").slice(3, 9))];
}

/** Negative, zero or positive as `a` is earlier than, as early as, or later than `b`. */
export function compareTimes(a: TimeKey, b: TimeKey): number {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * Items from several sources put back in time order: each is held until it has waited
 * `windowMs` since it arrived, and items leave in time order, so an item that arrives up to
 * `windowMs` after a later one still leaves before it. Items of equal time keep their arrival order.
 */
export class ReorderWindow<T> {
  private readonly held: Array<{ item: T; key: TimeKey; arrived: number }> = [];

  constructor(
    private readonly windowMs: number,
    private readonly keyOf: (item: T) => TimeKey,
  ) {}

  /** Hold `item`; most arrive in order, so the search for its place starts from the end. */
  push(item: T, now: number = Date.now()): void {
    const key = this.keyOf(item);
    let index = this.held.length;
    while (index > 0 && compareTimes(this.held[index - 1]!.key, key) > 0) index--;
    this.held.splice(index, 0, { item, key, arrived: now });
  }

  /** The items whose time has come, in time order; every item held with `all`. */
  take(now: number = Date.now(), all = false): T[] {
    let count = 0;
    while (count < this.held.length && (all || this.held[count]!.arrived <= now - this.windowMs))
      count++;
    return this.held.splice(0, count).map((entry) => entry.item);
  }

  get size(): number {
    return this.held.length;
  }
}
