// One way docklens dials NATS, node and hub alike: reconnecting for ever, each attempt after
// a random delay, so that a hundred nodes whose server came back do not all dial it at once.
import type { NatsConnection } from "@nats-io/transport-node";
import { FileReadError, readSecretFile } from "../config/file-errors.ts";
import { DocklensError } from "../errors.ts";

/** Options of {@link connectNats}. */
export interface ConnectNatsOptions {
  /** `nats://host:4222`, `tls://host:4222`: the servers of one NATS system. */
  servers: string[];
  /** A credentials file (a user's JWT and nkey seed, as `nsc` writes it). */
  creds?: string;
  /** The connection's name, as the server's monitoring shows it (`docklens node far`). */
  name: string;
  /** Wait for the first connection however long it takes (a hub); else fail at once (a node's start). */
  waitForServer?: boolean;
}

/** Time between reconnect attempts, and the most added to it at random. */
const RECONNECT_WAIT_MS = 1000;
const RECONNECT_JITTER_MS = 2000;

/** Connect to NATS; throws ENGINE_UNREACHABLE naming the servers when it cannot. */
export async function connectNats(options: ConnectNatsOptions): Promise<NatsConnection> {
  const { connect, credsAuthenticator } = await import("@nats-io/transport-node");
  let authenticator;
  if (options.creds) {
    try {
      const creds = await readSecretFile(options.creds);
      authenticator = credsAuthenticator(new Uint8Array(creds));
    } catch (error) {
      throw new DocklensError(
        "INVALID_CONFIG",
        `cannot read the NATS credentials file (${reasonOf(error)})`,
        { cause: error },
      );
    }
  }
  // nats.js takes no user and password in a URL: they go as options, and never into a message.
  const userinfo = options.servers.map(userOf).find((user) => user !== undefined);
  const servers = options.servers.map(withoutUser);
  try {
    return await connect({
      servers,
      ...(userinfo ?? {}),
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
      reconnectJitter: RECONNECT_JITTER_MS,
      reconnectJitterTLS: RECONNECT_JITTER_MS,
      pingInterval: 10_000,
      maxPingOut: 2,
      waitOnFirstConnect: options.waitForServer ?? false,
      ...(authenticator ? { authenticator } : {}),
    });
  } catch (error) {
    throw new DocklensError(
      "ENGINE_UNREACHABLE",
      `cannot connect to NATS at ${servers.join(", ")}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** `nats://user:pass@host:4222` → its user and password; undefined without them. */
function userOf(server: string): { user: string; pass: string } | undefined {
  try {
    const url = new URL(server);
    if (!url.username) return undefined;
    return { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  } catch {
    return undefined;
  }
}

/** A server's URL without its user and password, as docklens dials and names it. */
export function withoutUser(server: string): string {
  return server.replace(/^([a-z]+:\/\/)[^@/]*@/i, "$1");
}

/** A file's failure in the config's words; one of its contents (never shown) by its code. */
function reasonOf(error: unknown): string {
  return error instanceof FileReadError
    ? error.message
    : ((error as NodeJS.ErrnoException).code ?? "error");
}
