// Alerts (README, "Alerts"): `GET /alerts`, the firing and recently resolved alerts of serve's
// rules under the token's clusters; `docklens alerts`, what the rules would fire now.
import type { Operation } from "./operation.ts";
import { defineCommand } from "./parts.ts";
import { arrayOf, closed, ref, str } from "./schema.ts";

const alertsCore = () => import("../core/alerts/alerts.ts");

const alert = closed(
  {
    id: {
      type: "string",
      description: "A stable fingerprint of rule, cluster, container and subject",
    },
    rule: str,
    when: str,
    state: { type: "string", enum: ["firing", "resolved"] },
    cluster: { oneOf: [ref("ClusterRef"), { type: "null" }] },
    container: { oneOf: [closed({ id: str, name: str }), { type: "null" }] },
    cause: str,
    value: { type: ["number", "string"] },
    startsAt: str,
    endsAt: str,
    link: str,
  },
  ["id", "rule", "when", "state", "cluster", "container", "cause", "startsAt", "link"],
);

/** The body of `GET /alerts`. */
export const ALERTS_SCHEMAS = { Alerts: closed({ alerts: arrayOf(alert) }) } as const;

/** `GET /alerts`. */
export const alerts: Operation = {
  route: {
    path: "/alerts",
    summary: "Firing and recently resolved alerts of serve's rules, of the token's clusters",
    schema: "Alerts",
    schemas: ALERTS_SCHEMAS,
    errors: [],
    query: {},
    run: async (_, context) => (await alertsCore()).listAlerts(context),
  },
  command: defineCommand({
    name: ["alerts"],
    description:
      "evaluate the config's alert rules now, without serve: print what fires; exit 1 if anything does",
    examples: [
      ["docklens alerts", "in a cron or CI job: exit 1 when a rule fires"],
      ["docklens alerts --json | jq '.alerts[] | {rule, cause}'"],
    ],
    call: async (_, __, coreOptions) =>
      (await import("../core/alerts/check-alerts.ts")).checkAlerts(coreOptions),
    view: (render) => render.alertsTable,
    hooks: () => ({
      warnings: (result) =>
        result.unanswered.map(
          ({ rule, cluster }) => `rule ${rule}: ${cluster.name} did not answer`,
        ),
      exitCode: (result) => (result.alerts.length ? 1 : 0),
    }),
  }),
};
