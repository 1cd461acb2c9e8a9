// The `metrics` key of the config file (issue 47): what `/metrics` serves beside serve's own and
// the engines' counts. Per-container series are on by default, and left out past a bound.
import { z } from "zod/mini";
import { cached } from "./cached.ts";

/** The `metrics` key as written. */
export interface MetricsConfigInput {
  /**
   * Per-container series (cAdvisor's names): `false` for none; `max`, the containers a scrape
   * holds at most (past it, their series are left out and counted).
   */
  containers?: boolean | { max?: number };
}

/** The config's `metrics` read with its defaults. */
export interface MetricsConfig {
  /** `false`: no per-container series. */
  containers: false | { max: number };
}

/** Containers a scrape holds series of, at most, by default. */
export const DEFAULT_METRICS_CONTAINERS = 2000;

/** The `metrics` key, made when a config file has it. */
export const metricsSchema = cached(() =>
  z.strictObject(
    {
      containers: z.optional(
        z.union(
          [
            z.boolean(),
            z.strictObject({
              max: z.optional(
                z
                  .int({ error: "expected an integer" })
                  .check(
                    z.minimum(1, "expected at least 1"),
                    z.maximum(1_000_000, "expected at most 1000000"),
                  ),
              ),
            }),
          ],
          { error: "expected false, true or { max }" },
        ),
      ),
    },
    { error: "expected an object" },
  ),
);

/** The `metrics` key with its defaults: per-container series of at most 2000 containers. */
export function toMetricsConfig(input: MetricsConfigInput | undefined): MetricsConfig {
  const containers = input?.containers ?? true;
  if (containers === false) return { containers: false };
  const max = containers === true ? undefined : containers.max;
  return { containers: { max: max ?? DEFAULT_METRICS_CONTAINERS } };
}
