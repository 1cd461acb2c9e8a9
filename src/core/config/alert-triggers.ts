// What an alert rule triggers on, apart from the config's checks (alerts-schema.ts), so that the
// body schema of `GET /alerts` names them without loading the config's validator.

/** What a rule triggers on (docs/guide/alerts.md). */
export const ALERT_TRIGGERS = [
  "exited",
  "oom",
  "unhealthy",
  "restarting",
  "engine-down",
  "log",
  "cpu",
  "memory",
  "drift",
  "missing",
] as const;
export type AlertTrigger = (typeof ALERT_TRIGGERS)[number];
