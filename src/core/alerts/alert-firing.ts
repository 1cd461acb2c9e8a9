// What the watchers' findings do to the alerts: fire, end, reconcile a rule's list with what is
// firing, let go of clusters a rule no longer follows. Each change is logged and told to the
// rule's receivers; the book decides what is a change (cooldowns, resolve-after).
import type { AlertTrigger } from "../config/alert-triggers.ts";
import { AlertBook, alertId, type AlertNotice } from "./alert-book.ts";
import type { Delivery } from "./delivery.ts";
import type { RuleEvaluation, Seen } from "./evaluate.ts";
import type { RuleScope } from "./rule-scope.ts";

/** Rules whose alerts end by their own events and times, not by a list that no longer shows them. */
const ENDED_BY_THEMSELVES: ReadonlySet<AlertTrigger> = new Set(["oom", "restarting", "log"]);

/** What {@link alertFiring} needs: the book, the receivers of each rule, links, the log. */
export interface AlertFiringOptions {
  book: AlertBook;
  delivery: Delivery;
  /** Receivers by rule name. */
  notify: ReadonlyMap<string, readonly string[]>;
  /** The page's address, for links. */
  base: string;
  /** The page's link of an alert's subject. */
  link: (base: string, when: AlertTrigger, seen: Seen) => string;
  log: (message: string) => void;
}

/** The changes the watchers make to the alerts, and the book's own as time passes (`tick`). */
export function alertFiring(options: AlertFiringOptions) {
  const { book, delivery, notify, log } = options;
  const tell = (notices: Array<AlertNotice | undefined>) => {
    for (const notice of notices) {
      if (!notice) continue;
      const { alert } = notice;
      const where = [alert.cluster?.name, alert.container?.name].filter(Boolean).join("/");
      log(`alert ${alert.state}: ${alert.rule}${where ? ` ${where}` : ""}: ${alert.cause}`);
      delivery.send(notify.get(alert.rule) ?? [], [notice]);
    }
  };
  const fire = ({ rule }: RuleScope, seen: Seen, quietMs?: number) => {
    const link = options.link(options.base, rule.when, seen);
    const timing = { cooldownMs: rule.cooldownMs, ...(quietMs ? { resolveAfterMs: quietMs } : {}) };
    tell([book.fire({ ...seen, rule: rule.name, when: rule.when, link }, timing, Date.now())]);
  };
  const end = (id: string) => tell([book.resolve(id, Date.now())]);
  return {
    fire,
    /** The rule's list now: what it shows fires, what it no longer shows (where it asked) ends. */
    reconcile(scope: RuleScope, { seen, answered }: RuleEvaluation) {
      const ids = new Set<string>();
      for (const one of seen) {
        ids.add(alertId({ rule: scope.rule.name, ...one }));
        fire(scope, one, quietOf(scope));
      }
      if (ENDED_BY_THEMSELVES.has(scope.rule.when)) return;
      const asked = new Set(answered.map((cluster) => cluster.id));
      for (const alert of book.firingOf(scope.rule.name))
        if (!ids.has(alert.id) && (alert.cluster ? asked.has(alert.cluster.id) : asked.size))
          end(alert.id);
    },
    /** The alert of a cluster's container (or of the cluster, `null`) ends. */
    end(scope: RuleScope, cluster: number | { id: number }, container: string | null) {
      end(
        alertId({
          rule: scope.rule.name,
          cluster: { id: typeof cluster === "number" ? cluster : cluster.id, name: "" },
          container: container === null ? null : { id: container, name: "" },
        }),
      );
    },
    /** A rule's clusters changed: alerts of those it left end. */
    followed({ rule, clusters }: RuleScope) {
      const ids = new Set(clusters.map((cluster) => cluster.id));
      for (const alert of book.firingOf(rule.name))
        if (alert.cluster && !ids.has(alert.cluster.id)) end(alert.id);
    },
    /** What the book ends or sends again as time passes. */
    tick: () => tell(book.tick(Date.now())),
  };
}

/** How long a rule's alert stays firing without being seen again, when the rule says. */
function quietOf({ rule }: RuleScope): number | undefined {
  return rule.when === "restarting"
    ? rule.windowMs
    : rule.when === "log"
      ? rule.resolveAfterMs
      : undefined;
}
