// What each kind of receiver is sent: the request a batch of notices makes. Every URL comes from
// the config (or the variable or file it names): no request to serve can choose where alerts go.
import { DocklensError } from "../errors.ts";
import type { AlertNotice } from "./alert-book.ts";
import type { AlertReceiver } from "../config/alerts-schema.ts";
import type { ReceiverTarget } from "../config/receiver-target.ts";
import { readSecretFileSync } from "../config/file-errors.ts";

/** A request to send: one per batch of notices. */
export interface ReceiverRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A receiver whose URL is read: what delivery sends to. */
export interface ReadyReceiver extends AlertReceiver {
  url: string;
}

/** The URL of `receiver`, read from the variable or file its config names. */
export function readReceiver(
  receiver: AlertReceiver,
  env: NodeJS.ProcessEnv = process.env,
): ReadyReceiver {
  const url = readTarget(receiver.target, env, receiver.name);
  if (!/^https?:\/\/\S+$/.test(url))
    throw new DocklensError(
      "INVALID_CONFIG",
      `alerts receiver "${receiver.name}": expected an http:// or https:// URL`,
    );
  // Alertmanager's is a base URL, its API path added to it.
  return { ...receiver, url: receiver.kind === "alertmanager" ? url.replace(/\/+$/, "") : url };
}

function readTarget(target: ReceiverTarget, env: NodeJS.ProcessEnv, name: string): string {
  if (typeof target === "string") return target;
  const fail = (why: string): never => {
    throw new DocklensError("INVALID_CONFIG", `alerts receiver "${name}": ${why}`);
  };
  if ("env" in target)
    return env[target.env]?.trim() || fail(`the variable ${target.env} is not set`);
  try {
    return readSecretFileSync(target.file).trim() || fail(`the file ${target.file} is empty`);
  } catch (error) {
    if (error instanceof DocklensError) throw error;
    return fail(`cannot read ${target.file} (${(error as Error).message})`);
  }
}

const JSON_HEADERS = { "Content-Type": "application/json" };

/** The request that tells `receiver` of `notices`. */
export function receiverRequest(
  receiver: ReadyReceiver,
  notices: readonly AlertNotice[],
): ReceiverRequest {
  const alerts = notices.map((notice) => notice.alert);
  switch (receiver.kind) {
    case "webhook":
      return { url: receiver.url, headers: JSON_HEADERS, body: JSON.stringify({ alerts }) };
    case "alertmanager":
      return {
        url: `${receiver.url}/api/v2/alerts`,
        headers: JSON_HEADERS,
        body: JSON.stringify(notices.map(alertmanagerAlert)),
      };
    case "slack":
      return {
        url: receiver.url,
        headers: JSON_HEADERS,
        body: JSON.stringify({ text: chatText(notices) }),
      };
    case "discord":
      // Discord takes at most 2,000 characters of content.
      return {
        url: receiver.url,
        headers: JSON_HEADERS,
        body: JSON.stringify({ content: chatText(notices).slice(0, 2000) }),
      };
    case "ntfy": {
      const firing = alerts.some((alert) => alert.state === "firing");
      return {
        url: receiver.url,
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          // Header values are Latin-1: names are ASCII by the config's and engines' rules.
          Title: `docklens: ${alerts.length} alert${alerts.length === 1 ? "" : "s"} ${firing ? "firing" : "resolved"}`,
          Tags: firing ? "rotating_light" : "white_check_mark",
          ...(alerts.length === 1 ? { Click: alerts[0]!.link } : {}),
        },
        body: chatText(notices),
      };
    }
  }
}

/** Lines a chat message holds at most: a group of a burst says how many more there are. */
const CHAT_LINES = 20;

/** A chat message about `notices`: a line each, the first {@link CHAT_LINES}, then how many more. */
function chatText(notices: readonly AlertNotice[]): string {
  const lines = notices.slice(0, CHAT_LINES).map(line);
  const more = notices.length - lines.length;
  return [...lines, ...(more > 0 ? [`… and ${more} more (GET /alerts)`] : [])].join("\n");
}

/** One line of text about a notice, for chat receivers. */
export function line({ alert }: AlertNotice): string {
  const where = [alert.cluster?.name, alert.container?.name].filter(Boolean).join("/");
  const mark = alert.state === "firing" ? "FIRING" : "RESOLVED";
  return `[${mark}] ${alert.rule}${where ? ` ${where}` : ""}: ${alert.cause} ${alert.link}`;
}

/**
 * An alert as Alertmanager's v2 API takes it. Its labels are what Alertmanager groups and
 * deduplicates on: two serve replicas watching the same engines send the same labels, and
 * Alertmanager notifies once.
 */
export function alertmanagerAlert({ alert, subject }: AlertNotice) {
  const labels: Record<string, string> = {
    alertname: alert.rule,
    when: alert.when,
    source: "docklens",
  };
  if (alert.cluster) labels.cluster = alert.cluster.name;
  if (alert.container) labels.container = alert.container.name;
  if (subject) labels.subject = subject;
  return {
    labels,
    annotations: {
      summary: line({ alert }),
      cause: alert.cause,
      ...(alert.value !== undefined ? { value: String(alert.value) } : {}),
      ...(alert.container ? { container_id: alert.container.id } : {}),
    },
    startsAt: alert.startsAt,
    ...(alert.endsAt ? { endsAt: alert.endsAt } : {}),
    generatorURL: alert.link,
  };
}
