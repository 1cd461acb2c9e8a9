// Who may read a server that has no token: the names it is reached by (against DNS rebinding),
// and no web page of another site (docs/http-interface.md, "Without a token"). And what `cors`
// may be.
import { isIP } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import type { DocklensConfig } from "../core/config/cluster-config.ts";
import { DocklensError } from "../core/errors.ts";

const LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?";
/** A host name as RFC 1123 has it, whose last label is not all digits (`127.0.0.256` is none). */
export const HOST_NAME = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)*(?!\\d+\\.?$)${LABEL}\\.?$`);

/**
 * Why `name` cannot be an allowed host (`--allowed-host`, the config's `allowedHosts`), or
 * `undefined`: a host name, or one with a leading dot (`.example.com`: that name and every name
 * under it), as Vite's `server.allowedHosts` takes them.
 */
export function allowedHostProblem(name: string): string | undefined {
  return HOST_NAME.test(name.replace(/^\./, ""))
    ? undefined
    : `expected a host name, or .domain for every name under it, got ${JSON.stringify(name.slice(0, 80))}`;
}

/**
 * Why `value` cannot be the origin of `cors`, or `undefined`: an origin is
 * `scheme://host[:port]` (http or https), the very text a browser sends in `Origin`; `*` lets
 * every web page read every engine, so only beside a token.
 */
export function corsProblem(value: string, token: boolean): string | undefined {
  if (value === "*")
    return token
      ? undefined
      : "* lets any web page read every engine: it needs a token (--token, or the config's tokens)";
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Not a URL: said below.
  }
  return url && /^https?:$/.test(url.protocol) && url.origin === value
    ? undefined
    : "expected one origin, scheme://host[:port] as a browser sends it " +
        `(https://dash.example.com), or *, got ${JSON.stringify(value.slice(0, 80))}`;
}

/**
 * What the app makes of its `cors` and allowed hosts (its own, and the config's
 * `allowedHosts`), each checked (`INVALID_CONFIG` naming it): the origin CORS allows, and the
 * check of each request, none beside a `token` (a page cannot send a token it does not know, nor
 * read anything without it).
 */
export function createExposure(options: {
  cors?: string | undefined;
  allowedHosts?: readonly string[] | undefined;
  config: DocklensConfig;
  token: boolean;
}): {
  cors: string | undefined;
  refuse: ((headers: IncomingHttpHeaders) => DocklensError | undefined) | undefined;
} {
  const checked = (what: string, value: string, problem: string | undefined) => {
    if (problem) throw new DocklensError("INVALID_CONFIG", `${what}: ${problem}`);
    return value;
  };
  const cors = options.cors
    ? checked("cors", options.cors, corsProblem(options.cors, options.token))
    : undefined;
  const file = options.config.source ?? "config";
  const allowedHosts = [
    ...(options.allowedHosts ?? []),
    ...(options.config.allowedHosts ?? []).map((name, index) =>
      checked(`${file}: allowedHosts[${index}]`, name, allowedHostProblem(name)),
    ),
  ];
  return { cors, refuse: options.token ? undefined : createExposureCheck({ allowedHosts, cors }) };
}

/** The host of a `Host` header's value, lower case, without its port or a final dot. */
function hostOf(header: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(header);
  const host = bracketed ? bracketed[1]! : header.replace(/:\d*$/, "");
  return host.toLowerCase().replace(/\.$/, "");
}

/**
 * The check a server without a token makes of each request, before anything else: `undefined`
 * to answer it, else the error to refuse it with.
 * - `Host` must name the server: an IP address (a page can only reach an address in its URL
 *   from its own origin, so an address is never a rebinding), `localhost` or a name under it,
 *   or one of `allowedHosts` (a leading dot: the name and every name under it). A request with
 *   no `Host` is no browser's.
 * - A browser's request from another site or origin (`Sec-Fetch-Site: cross-site` or
 *   `same-site`, else an `Origin` that is not the server's own) is refused, unless it comes from
 *   the `cors` origin or is a navigation (a link followed: the page that linked reads nothing).
 */
function createExposureCheck(options: {
  allowedHosts: readonly string[];
  cors?: string | undefined;
}): (headers: IncomingHttpHeaders) => DocklensError | undefined {
  const exact = new Set<string>();
  const under: string[] = [];
  for (const name of options.allowedHosts) {
    const host = name.toLowerCase().replace(/\.$/, "");
    if (host.startsWith(".")) under.push(host);
    exact.add(host.replace(/^\./, ""));
  }
  const allowed = (host: string) =>
    isIP(host) !== 0 ||
    host === "localhost" ||
    host.endsWith(".localhost") ||
    exact.has(host) ||
    under.some((suffix) => host.endsWith(suffix));
  return (headers) => {
    const host = headers.host;
    if (host !== undefined && !allowed(hostOf(host)))
      return new DocklensError(
        "HOST_NOT_ALLOWED",
        "this server has no token and answers only the names it is reached by, not " +
          `${JSON.stringify(hostOf(host).slice(0, 80))}: add it with --allowed-host ` +
          "(or the config's allowedHosts), or set a token",
      );
    const { origin } = headers;
    if (origin !== undefined && origin === options.cors) return undefined;
    const site = headers["sec-fetch-site"];
    const foreign = site
      ? (site === "cross-site" || site === "same-site") && headers["sec-fetch-mode"] !== "navigate"
      : origin !== undefined && !sameHost(origin, host);
    return foreign
      ? new DocklensError(
          "ORIGIN_NOT_ALLOWED",
          "this server has no token and answers no web page of another origin: set a token, or --cors for that origin",
        )
      : undefined;
  };
}

/** Whether `origin` (an `Origin` header) names the server the request's `Host` names. */
function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}
