import { describe, expect, it } from "vitest";
import { Coalescer, Limiter } from "../../src/core/flow.ts";

/** A promise settled from outside, to hold a task in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("Coalescer", () => {
  it("shares one call among identical reads in flight, and starts anew once it settled", async () => {
    const reads = new Coalescer();
    const gate = deferred<string>();
    let started = 0;
    const start = () => (started++, gate.promise);
    const waiters = Array.from({ length: 16 }, () => reads.run("containers", start));
    gate.resolve("body");
    expect(await Promise.all(waiters)).toEqual(Array(16).fill("body"));
    expect(started).toBe(1);
    await reads.run("containers", async () => (started++, "fresh"));
    expect(started).toBe(2);
    expect(reads.size).toEqual({ inflight: 0, cached: 0 });
  });

  it("keeps different keys apart", async () => {
    const reads = new Coalescer();
    expect(
      await Promise.all([reads.run("a", async () => 1), reads.run("b", async () => 2)]),
    ).toEqual([1, 2]);
  });

  it("lets a waiter leave without disturbing the others, and cancels the call when the last one leaves", async () => {
    const reads = new Coalescer();
    const gate = deferred<string>();
    let callSignal!: AbortSignal;
    const start = (signal: AbortSignal) => ((callSignal = signal), gate.promise);
    const first = new AbortController();
    const second = new AbortController();
    const a = reads.run("k", start, first.signal);
    const b = reads.run("k", start, second.signal);
    first.abort(new Error("left"));
    await expect(a).rejects.toThrow("left");
    expect(callSignal.aborted).toBe(false);
    second.abort(new Error("left too"));
    await expect(b).rejects.toThrow("left too");
    expect(callSignal.aborted).toBe(true);
    expect(reads.size.inflight).toBe(0);
    gate.resolve("late");
  });

  it("shares a failure among its waiters and keeps no failure", async () => {
    const reads = new Coalescer(60_000);
    const gate = deferred<string>();
    const both = [reads.run("k", () => gate.promise), reads.run("k", () => gate.promise)];
    gate.reject(new Error("engine down"));
    for (const waiter of both) await expect(waiter).rejects.toThrow("engine down");
    expect(reads.size).toEqual({ inflight: 0, cached: 0 });
  });

  it("serves a result again within ttlMs, and only then", async () => {
    const reads = new Coalescer(30);
    let calls = 0;
    const start = async () => ++calls;
    expect(await reads.run("k", start)).toBe(1);
    expect(await reads.run("k", start)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await reads.run("k", start)).toBe(2);
  });
});

describe("Limiter", () => {
  it("runs at most max tasks at once, the rest in order", async () => {
    const limiter = new Limiter(2);
    const gates = Array.from({ length: 4 }, () => deferred<void>());
    const order: number[] = [];
    const tasks = gates.map((gate, i) => limiter.run(async () => (order.push(i), gate.promise)));
    await tick();
    expect(order).toEqual([0, 1]);
    expect(limiter.load).toEqual({ active: 2, waiting: 2 });
    gates[1]!.resolve();
    await tick();
    expect(order).toEqual([0, 1, 2]);
    gates.forEach((gate) => gate.resolve());
    await Promise.all(tasks);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(limiter.load).toEqual({ active: 0, waiting: 0 });
  });

  it("drops a waiter whose signal aborts, without running it", async () => {
    const limiter = new Limiter(1);
    const gate = deferred<void>();
    const held = limiter.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = limiter.run(async () => void (ran = true), controller.signal);
    controller.abort(new Error("timed out"));
    await expect(waiting).rejects.toThrow("timed out");
    gate.resolve();
    await held;
    expect(ran).toBe(false);
    expect(limiter.load).toEqual({ active: 0, waiting: 0 });
  });

  it("frees its place when a task fails", async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await limiter.run(async () => "next")).toBe("next");
  });
});
