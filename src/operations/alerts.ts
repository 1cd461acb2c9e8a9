// Alerts (docs/guide/alerts.md): `GET /alerts`, the firing and recently resolved alerts of serve's
// rules under the token's clusters; `docklens alerts`, what the rules would fire now.
import type { Operation } from "./operation.ts";
import { defineCommand } from "./parts.ts";
import { defineRoute } from "./route.ts";
import { ALERTS_SCHEMAS } from "./bodies/alerts.ts";

const alertsCore = () => import("../core/alerts/alerts.ts");
const checkAlerts = () => import("../core/alerts/check-alerts.ts");

/** `GET /alerts`. */
export const alerts: Operation = {
  route: defineRoute({
    path: "/alerts",
    summary: "Firing and recently resolved alerts of serve's rules, of the token's clusters",
    schema: "Alerts",
    schemas: ALERTS_SCHEMAS,
    errors: [],
    query: {},
    run: async (_, context) => {
      if (!context.fleet.config.alerts?.rules.length) return { alerts: [] };
      const { alertsOf, listAlerts } = await alertsCore();
      if (alertsOf(context.fleet)) return listAlerts(context);
      // No serve keeps the rules running here (an MCP tool, the library): evaluated now, as
      // `docklens alerts` does.
      const { alerts } = await (await checkAlerts()).checkAlerts(context);
      return { alerts };
    },
  }),
  command: defineCommand({
    name: ["alerts"],
    description:
      "evaluate the config's alert rules now, without serve: print what fires; exit 1 if anything does",
    options: [
      {
        flags: "--all",
        description:
          "also what resolved in the last hour, as GET /alerts lists it (state rules, from the engines' events)",
      },
    ],
    examples: [
      ["docklens alerts", "in a cron or CI job: exit 1 when a rule fires"],
      ["docklens alerts --all", "what fires, then what resolved in the last hour"],
      ["docklens alerts --json | jq '.alerts[] | {rule, cause}'"],
    ],
    call: async (_, options, coreOptions) =>
      (await checkAlerts()).checkAlerts({ ...coreOptions, all: options.all === true }),
    hooks: () => ({
      warnings: (result) => [
        ...result.unanswered.map(
          ({ rule, cluster }) => `rule ${rule}: ${cluster.name} did not answer`,
        ),
        ...(result.truncated ?? []).map(
          ({ cluster, oldest }) =>
            `${cluster.name}: the engine's events reach back only to ` +
            `${new Date(oldest * 1000).toISOString().slice(0, 19)}Z; what resolved before is not known`,
        ),
      ],
      exitCode: (result) => (result.alerts.some((alert) => alert.state === "firing") ? 1 : 0),
    }),
  }),
};
