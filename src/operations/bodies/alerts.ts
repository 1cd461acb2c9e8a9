// The body of `GET /alerts`: each alert, firing or resolved.
import { ALERT_TRIGGERS } from "../../core/config/alert-triggers.ts";
import { arrayOf, closed, ref, str } from "../schema.ts";

const alert = closed(
  {
    id: {
      type: "string",
      description: "A stable fingerprint of rule, cluster, container and subject",
    },
    rule: str,
    when: { type: "string", enum: ALERT_TRIGGERS },
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
