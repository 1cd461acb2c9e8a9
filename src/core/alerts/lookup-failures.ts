// Events a rule lost because their containers could not be read: counted per rule for
// `/metrics`, and logged at most once a minute per rule, with the last reason.
import { onceEvery, type OnceEvery } from "./once-every.ts";
import type { RuleScope } from "./rule-scope.ts";

/** Lost events are logged this often at most, per rule. */
const LOOKUP_LOG_MS = 60_000;

/** The lookups that failed, by rule. */
export class LookupFailures {
  readonly #rules = new Map<string, { count: number; log: OnceEvery; last?: string }>();

  constructor(private readonly log: (message: string) => void) {}

  /** A lookup of `cluster` for `scope`'s rule failed with `error`: the event is lost. */
  failed(scope: RuleScope, cluster: { name: string }, error: Error): void {
    const name = scope.rule.name;
    let tally = this.#rules.get(name);
    if (!tally) {
      const made: { count: number; log: OnceEvery; last?: string } = {
        count: 0,
        log: onceEvery(LOOKUP_LOG_MS, (n) =>
          this.log(
            `rule "${name}": ${n} events lost, their containers could not be read (${made.last})`,
          ),
        ),
      };
      this.#rules.set(name, (tally = made));
    }
    tally.count++;
    tally.last = `${cluster.name}: ${error.message}`;
    tally.log.add();
  }

  /** Failures so far, by rule. */
  counts(): Array<{ rule: string; count: number }> {
    return [...this.#rules].map(([rule, { count }]) => ({ rule, count }));
  }

  close(): void {
    for (const { log } of this.#rules.values()) log.close();
  }
}
