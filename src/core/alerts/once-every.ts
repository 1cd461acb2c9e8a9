// A tally told once per interval at most: the first at once, what came since at the end of each
// interval that had some. So a burst of failures is a log line a minute, never silent, never a storm.

/** The tally of {@link onceEvery}. */
export interface OnceEvery {
  /** Count `n` more. */
  add: (n?: number) => void;
  /** Stop: what is counted and not told yet is not told. */
  close: () => void;
}

/**
 * Tell `flush` the count added, at once the first time, then at most once per `ms`.
 * @example
 * ```ts
 * const dropped = onceEvery(60_000, (n) => log(`dropped ${n} notices`));
 * dropped.add(3); // logs "dropped 3 notices" now; more within the minute are told at its end
 * ```
 */
export function onceEvery(ms: number, flush: (count: number) => void): OnceEvery {
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    timer = undefined;
    if (!count) return;
    flush(count);
    count = 0;
    timer = setTimeout(tick, ms).unref();
  };
  return {
    add: (n = 1) => {
      count += n;
      if (!timer) tick();
    },
    close: () => {
      clearTimeout(timer);
      timer = undefined;
      count = 0;
    },
  };
}
