// The `history` key of the config file (D26): whether serve and node record, where, for how long
// and what. Absent: they record with the defaults; `false`: they do not.
import { z } from "zod/mini";
import { DURATION, durationMs } from "./duration.ts";
import { cached } from "./cached.ts";

/** The `history` key as written. */
export type HistoryConfigInput =
  | boolean
  | {
      /** The SQLite file; default `history.sqlite` in the data directory. */
      path?: string;
      retention?: { maxAge?: string; maxBytes?: number };
      statsInterval?: string;
      /** Whose lines are kept: every container (`true`, the default), none, or a selection. */
      logs?: boolean | { filter?: string[]; max?: number };
    };

/** What serve and node record, the config's `history` read with its defaults; `false`: nothing. */
export type HistoryConfig =
  | false
  | {
      path?: string;
      maxAgeMs: number;
      maxBytes: number;
      statsIntervalMs: number;
      logs: false | { filter: string[]; max: number };
    };

/** Containers whose lines are followed at most per engine, by default. */
const DEFAULT_LOG_CONTAINERS = 100;

/** The `history` key, made when a config file has it. */
export const historySchema = cached(() => {
  const duration = z
    .string({ error: "expected a duration such as 15s, 12h or 7d" })
    .check(z.regex(DURATION, "expected a duration such as 15s, 12h or 7d"));
  const count = (max: number) =>
    z
      .int({ error: "expected an integer" })
      .check(z.minimum(1, "expected at least 1"), z.maximum(max, `expected at most ${max}`));
  return z.union(
    [
      z.boolean(),
      z.strictObject({
        path: z.optional(z.string().check(z.minLength(1, "expected a file path"))),
        retention: z.optional(
          z.strictObject({
            maxAge: z.optional(duration),
            // 1 MiB to 1 TiB.
            maxBytes: z.optional(
              count(2 ** 40).check(z.minimum(2 ** 20, "expected at least 1048576")),
            ),
          }),
        ),
        statsInterval: z.optional(duration),
        logs: z.optional(
          z.union([
            z.boolean(),
            z.strictObject({
              filter: z.optional(z.array(z.string(), { error: "expected an array of key=value" })),
              max: z.optional(count(10_000)),
            }),
          ]),
        ),
      }),
    ],
    { error: "expected false, true or an object" },
  );
});

/** The `history` key with its defaults: 7 days, 2 GiB, a sample every 15 s, every container's lines. */
export function toHistoryConfig(input: HistoryConfigInput | undefined): HistoryConfig {
  if (input === false) return false;
  const given = input === true || input === undefined ? {} : input;
  const logs = given.logs ?? true;
  return {
    ...(given.path ? { path: given.path } : {}),
    maxAgeMs: durationMs(given.retention?.maxAge ?? "7d"),
    maxBytes: given.retention?.maxBytes ?? 2 * 1024 ** 3,
    statsIntervalMs: Math.max(1000, durationMs(given.statsInterval ?? "15s")),
    logs:
      logs === false
        ? false
        : {
            filter: logs === true ? [] : (logs.filter ?? []),
            max: (logs === true ? undefined : logs.max) ?? DEFAULT_LOG_CONTAINERS,
          },
  };
}
