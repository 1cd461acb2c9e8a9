// The `alerts` key of the config file (docs/guide/alerts.md): receivers and rules, checked with the
// rest of the config, an error naming the rule and the key. What only the engines' terms can
// check (filters, cluster references) is checked when the rules start (core/alerts/rule-scope.ts).
import { z } from "zod/mini";
import { CLUSTER_GLOB_PATTERN, MAX_NAME_LENGTH, NAME_PATTERN } from "../names.ts";
import { ALERT_TRIGGERS, type AlertTrigger } from "./alert-triggers.ts";
import { cached } from "./cached.ts";
import type { ReceiverTarget } from "./receiver-target.ts";
import { DURATION, durationMs } from "./duration.ts";

/** The kinds of receiver, each a POST to a URL the config holds. */
export const RECEIVER_KINDS = ["webhook", "alertmanager", "slack", "discord", "ntfy"] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];

/**
 * The schemas of a receiver and of a rule, made when a config file has `alerts` (zod.lazy below):
 * a file without them does not pay for making them.
 */
const parts = cached(() => {
  const text = z.string({ error: "expected a string" });
  const name = text.check(
    z.maxLength(MAX_NAME_LENGTH, `expected at most ${MAX_NAME_LENGTH} characters`),
    z.regex(
      NAME_PATTERN,
      "expected letters, digits, '_', '.' or '-', starting with a letter or digit",
    ),
  );
  const duration = text.check(z.regex(DURATION, "expected a duration like 30s, 5m or 1h"));
  const names = z.array(name, { error: "expected an array of names" });
  const cluster = text.check(
    z.regex(CLUSTER_GLOB_PATTERN, "expected a cluster name or id, or a glob of names with * and ?"),
  );
  const positive = z
    .number({ error: "expected a number" })
    .check(z.positive("expected more than 0"));
  const count = z
    .int({ error: "expected an integer" })
    .check(z.minimum(1, "expected at least 1"), z.maximum(10_000, "expected at most 10000"));

  /** A URL, or where to read it: `{ env: NAME }`, `{ file: PATH }` (a webhook URL is a secret). */
  const target = z.union(
    [
      text.check(z.regex(/^https?:\/\/\S+$/, "expected an http:// or https:// URL")),
      z.strictObject({
        env: text.check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a variable name")),
      }),
      z.strictObject({ file: text.check(z.minLength(1, "expected a path")) }),
    ],
    { error: "expected a URL, { env: NAME } or { file: PATH }" },
  );

  const receiverSchema = z
    .strictObject({
      name,
      webhook: z.optional(target),
      alertmanager: z.optional(target),
      slack: z.optional(target),
      discord: z.optional(target),
      ntfy: z.optional(target),
    })
    .check(
      z.refine(
        (receiver) => RECEIVER_KINDS.filter((kind) => receiver[kind] !== undefined).length === 1,
        `expected exactly one of ${RECEIVER_KINDS.join(", ")}`,
      ),
    );

  const ruleSchema = z
    .strictObject({
      name,
      when: z.enum(ALERT_TRIGGERS, { error: `expected one of ${ALERT_TRIGGERS.join(", ")}` }),
      cluster: z.optional(
        z.union([cluster, z.array(cluster)], { error: "expected a cluster or an array" }),
      ),
      project: z.optional(name),
      filter: z.optional(z.array(text, { error: "expected an array of filters" })),
      notify: z.optional(names),
      grep: z.optional(text.check(z.minLength(1, "expected a pattern"))),
      restarts: z.optional(count),
      window: z.optional(duration),
      above: z.optional(positive),
      for: z.optional(duration),
      label: z.optional(text.check(z.minLength(1, "expected a label key"))),
      min: z.optional(count),
      cooldown: z.optional(duration),
      resolveAfter: z.optional(duration),
      groupInterval: z.optional(duration),
    })
    .check(
      z.superRefine((rule, ctx) => {
        const need = (key: keyof typeof rule, why: string) => {
          if (rule[key] === undefined)
            ctx.addIssue({ code: "custom", path: [key], message: `required: ${why}` });
        };
        if (rule.when === "log") need("grep", "the pattern a log line must match");
        if (rule.when === "cpu" || rule.when === "memory") need("above", "a percentage");
      }),
    );
  return { receiverSchema, ruleSchema };
});

/** The `alerts` key, made when a config file has it. */
export const alertsSchema = cached(() =>
  z
    .strictObject({
      /** The page's address, for each alert's link; serve's own by default. */
      url: z.optional(
        z
          .string({ error: "expected a string" })
          .check(z.regex(/^https?:\/\/\S+$/, "expected an http:// or https:// URL")),
      ),
      receivers: z.optional(
        z.array(
          z.lazy(() => parts().receiverSchema),
          { error: "expected an array of receivers" },
        ),
      ),
      rules: z.optional(
        z.array(
          z.lazy(() => parts().ruleSchema),
          { error: "expected an array of rules" },
        ),
      ),
    })
    .check(
      z.superRefine((alerts, ctx) => {
        const receivers = new Set<string>();
        alerts.receivers?.forEach((receiver, index) => {
          if (receivers.has(receiver.name))
            ctx.addIssue({
              code: "custom",
              path: ["receivers", index, "name"],
              message: `duplicate name "${receiver.name}"`,
            });
          receivers.add(receiver.name);
        });
        const rules = new Set<string>();
        alerts.rules?.forEach((rule, index) => {
          if (rules.has(rule.name))
            ctx.addIssue({
              code: "custom",
              path: ["rules", index, "name"],
              message: `duplicate name "${rule.name}"`,
            });
          rules.add(rule.name);
          rule.notify?.forEach((receiver, at) => {
            if (!receivers.has(receiver))
              ctx.addIssue({
                code: "custom",
                path: ["rules", index, "notify", at],
                message: `no receiver "${receiver}" (known: ${[...receivers].join(", ") || "none"})`,
              });
          });
        });
      }),
    ),
);

// The types as written are declared, not inferred, so that the published types name no zod type
// (config-schema.ts checks that the schema takes exactly DocklensConfigInput, `alerts` included).

/** A receiver as written: its name and exactly one kind. */
export interface AlertReceiverInput {
  name: string;
  webhook?: ReceiverTarget;
  alertmanager?: ReceiverTarget;
  slack?: ReceiverTarget;
  discord?: ReceiverTarget;
  ntfy?: ReceiverTarget;
}

/** A rule as written (docs/guide/alerts.md); durations like `30s`, `5m`. */
export interface AlertRuleInput {
  name: string;
  when: AlertTrigger;
  cluster?: string | string[];
  project?: string;
  filter?: string[];
  notify?: string[];
  grep?: string;
  restarts?: number;
  window?: string;
  above?: number;
  for?: string;
  label?: string;
  min?: number;
  cooldown?: string;
  resolveAfter?: string;
  groupInterval?: string;
}

/** The `alerts` key as written. */
export interface AlertsConfigInput {
  /** The page's address, for each alert's link; serve's own by default. */
  url?: string;
  receivers?: AlertReceiverInput[];
  rules?: AlertRuleInput[];
}

/** A receiver, checked. */
export interface AlertReceiver {
  name: string;
  kind: ReceiverKind;
  target: ReceiverTarget;
}

/** A rule, checked, with its defaults applied (durations in ms). */
export interface AlertRule {
  name: string;
  when: AlertTrigger;
  clusters: string[];
  project?: string;
  filter: string[];
  /** Receiver names; every receiver when the rule names none. */
  notify: string[];
  grep?: string;
  restarts: number;
  windowMs: number;
  above?: number;
  forMs: number;
  label: string;
  min?: number;
  cooldownMs: number;
  resolveAfterMs: number;
  /** A receiver is told of the rule's changes this often at most, in one notice. */
  groupIntervalMs: number;
}

/** The alerts of a loaded config. */
export interface AlertsConfig {
  url?: string;
  receivers: AlertReceiver[];
  rules: AlertRule[];
}

/** The checked `alerts` key with its defaults (docs/guide/alerts.md). */
export function toAlertsConfig(input: AlertsConfigInput): AlertsConfig {
  const receivers = (input.receivers ?? []).map((receiver) => {
    const kind = RECEIVER_KINDS.find((candidate) => receiver[candidate] !== undefined)!;
    return { name: receiver.name, kind, target: receiver[kind]! };
  });
  const rules = (input.rules ?? []).map((rule): AlertRule => ({
    name: rule.name,
    when: rule.when,
    clusters: rule.cluster === undefined ? [] : [rule.cluster].flat(),
    ...(rule.project !== undefined ? { project: rule.project } : {}),
    filter: rule.filter ?? [],
    notify: rule.notify ?? receivers.map((receiver) => receiver.name),
    ...(rule.grep !== undefined ? { grep: rule.grep } : {}),
    restarts: rule.restarts ?? 3,
    windowMs: durationMs(rule.window ?? "5m"),
    ...(rule.above !== undefined ? { above: rule.above } : {}),
    forMs: durationMs(rule.for ?? "1m"),
    label: rule.label ?? "com.docker.compose.service",
    ...(rule.min !== undefined ? { min: rule.min } : {}),
    // Resolved at once, as Alertmanager tells it: the group interval gathers a flapping one.
    cooldownMs: durationMs(rule.cooldown ?? "0s"),
    resolveAfterMs: durationMs(rule.resolveAfter ?? "5m"),
    groupIntervalMs: durationMs(rule.groupInterval ?? "10s"),
  }));
  return { ...(input.url ? { url: input.url.replace(/\/+$/, "") } : {}), receivers, rules };
}
