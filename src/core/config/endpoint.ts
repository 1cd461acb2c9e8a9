/**
 * How docklens reaches one engine, parsed from a cluster's `host` and `port`
 * (docs/http-interface.md, "Configuration file").
 */
export interface Endpoint {
  protocol: "unix" | "http" | "https" | "ssh";
  /** Socket path, for `unix`. */
  socketPath?: string;
  /** Host name or IP address, for the network protocols. */
  hostname?: string;
  /** TCP port; `0` for a local socket. */
  port: number;
  /** SSH user from `ssh://user@host`. */
  username?: string;
}

const SCHEMES = new Set(["tcp:", "http:", "https:", "ssh:"]);

/**
 * Parse a cluster's `host` (`/path.sock`, `unix:///path.sock`, `tcp://h:p`, `ssh://user@h`,
 * or a host name or IP with or without a port: `h`, `h:p`, `:p`, `[::1]:p`, `::1`) into an
 * endpoint. `port` wins over a default; a `port` beside a socket path, or beside an address that
 * names another port, is an error rather than ignored. Throws an Error whose message says what
 * is wrong with `host`.
 */
export function parseEndpoint(host: string, port?: number, tls = false): Endpoint {
  if (host.startsWith("/") || host.startsWith("unix://")) {
    const socketPath = host.startsWith("/") ? host : host.slice("unix://".length);
    if (!socketPath.startsWith("/"))
      throw new Error("expected an absolute socket path after unix://");
    if (port !== undefined)
      throw new Error(`a socket path takes no port, but port ${port} is set beside it`);
    return { protocol: "unix", socketPath, port: 0 };
  }
  let url: URL;
  try {
    url = new URL(withScheme(host));
  } catch {
    throw new Error(
      "expected a host name or IP address (with :port or not), a socket path, " +
        "or a tcp://, unix:// or ssh:// URL",
    );
  }
  if (
    !SCHEMES.has(url.protocol) ||
    !url.hostname ||
    (url.pathname !== "" && url.pathname !== "/")
  ) {
    throw new Error(`unsupported engine address ${JSON.stringify(host)}`);
  }
  const urlPort = url.port ? Number(url.port) : undefined;
  if (urlPort !== undefined && port !== undefined && urlPort !== port) {
    throw new Error(`the URL names port ${urlPort} but port ${port} is set beside it: keep one`);
  }
  if (url.protocol === "ssh:") {
    return {
      protocol: "ssh",
      hostname: unbracket(url.hostname),
      port: urlPort ?? port ?? 22,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    };
  }
  const secure = tls || url.protocol === "https:";
  return {
    protocol: secure ? "https" : "http",
    hostname: unbracket(url.hostname),
    port: urlPort ?? port ?? (secure ? 2376 : 2375),
  };
}

/**
 * `host` as a URL, as the docker CLI reads an address (opts.ParseHost): no scheme means
 * `tcp://` (`h:p`, `:p`, `h`), a bare IPv6 address (two colons or more, no brackets) is a host
 * without a port, and no host is `localhost` (`:2375`, `tcp://`).
 */
function withScheme(host: string): string {
  const url = host.includes("://")
    ? host
    : `tcp://${/^[^[]*:[^[]*:/.test(host) ? `[${host}]` : host}`;
  return url.replace(/^tcp:\/\/(?=:|$)/, "tcp://localhost");
}

function unbracket(hostname: string): string {
  return hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
}

/** Where the engine is, as cluster records show it: the socket path, or the host name or IP. */
export function endpointHost(endpoint: Endpoint): string {
  return endpoint.protocol === "unix" ? endpoint.socketPath! : endpoint.hostname!;
}

/**
 * The endpoint as a URL-like string for messages: `unix:///run/docker.sock`, `http://h:2375`;
 * for a cluster of a node, the node and how it is reached (`node "edge" at https://edge:8080`).
 */
export function describeEndpoint(
  endpoint: Endpoint & { node?: { name: string; via: string; seen?: string } },
): string {
  const { node } = endpoint;
  if (node)
    return `node "${node.name}" at ${node.via}${node.seen ? `, last seen ${node.seen}` : ", never reached"}`;
  if (endpoint.protocol === "unix") return `unix://${endpoint.socketPath}`;
  const user = endpoint.username ? `${endpoint.username}@` : "";
  const host = endpoint.hostname?.includes(":") ? `[${endpoint.hostname}]` : endpoint.hostname;
  return `${endpoint.protocol}://${user}${host}:${endpoint.port}`;
}
