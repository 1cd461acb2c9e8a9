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
/** A bare host name or IP address: letters, digits, dots, dashes, colons (IPv6), brackets. */
const BARE_HOST = /^(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9.-]+|[0-9a-fA-F:]+)$/;

/**
 * Parse a cluster's `host` (`/path.sock`, `unix:///path.sock`, `tcp://h:p`, `ssh://user@h`,
 * or a bare host name or IP) into an endpoint. `port` wins over a default; a `port` beside a
 * socket path, or beside a URL that names another port, is an error rather than ignored.
 * Throws an Error whose message says what is wrong with `host`.
 */
export function parseEndpoint(host: string, port?: number, tls = false): Endpoint {
  const defaultPort = tls ? 2376 : 2375;
  if (host.startsWith("/") || host.startsWith("unix://")) {
    const socketPath = host.startsWith("/") ? host : host.slice("unix://".length);
    if (!socketPath.startsWith("/"))
      throw new Error("expected an absolute socket path after unix://");
    if (port !== undefined)
      throw new Error(`a socket path takes no port, but port ${port} is set beside it`);
    return { protocol: "unix", socketPath, port: 0 };
  }
  if (BARE_HOST.test(host)) {
    return {
      protocol: tls ? "https" : "http",
      hostname: unbracket(host),
      port: port ?? defaultPort,
    };
  }
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new Error(
      "expected a host name, an IP address, a socket path, or a tcp://, unix:// or ssh:// URL",
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

function unbracket(hostname: string): string {
  return hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
}

/** Where the engine is, as cluster records show it: the socket path, or the host name or IP. */
export function endpointHost(endpoint: Endpoint): string {
  return endpoint.protocol === "unix" ? endpoint.socketPath! : endpoint.hostname!;
}

/** The endpoint as a URL-like string for messages: `unix:///run/docker.sock`, `http://h:2375`. */
export function describeEndpoint(endpoint: Endpoint): string {
  if (endpoint.protocol === "unix") return `unix://${endpoint.socketPath}`;
  const user = endpoint.username ? `${endpoint.username}@` : "";
  const host = endpoint.hostname?.includes(":") ? `[${endpoint.hostname}]` : endpoint.hostname;
  return `${endpoint.protocol}://${user}${host}:${endpoint.port}`;
}
