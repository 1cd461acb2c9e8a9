// Durations as the config and the query strings write them: `30s`, `5m`, `1h30m`, `500ms`, `7d`.
// One pattern and one reading, so that alerts, history and the history reads agree.

/** A duration as the config writes it: `30s`, `5m`, `1h30m`, `500ms`. */
export const DURATION = /^(\d+(ms|s|m|h|d))+$/;
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5m` → 300000. */
export function durationMs(value: string): number {
  return [...value.matchAll(/(\d+)(ms|s|m|h|d)/g)].reduce(
    (sum, [, count, unit]) => sum + Number(count) * UNITS[unit!]!,
    0,
  );
}
