import { Agent } from "node:http";
import type { Duplex } from "node:stream";
import type { Client, ConnectConfig } from "ssh2";

/**
 * An http.Agent that reaches a Docker engine over SSH, as `docker -H ssh://…` does: one SSH
 * connection per cluster, reused, and one `docker system dial-stdio` channel per HTTP socket.
 * docklens uses it instead of docker-modem's own SSH agent, which opens an SSH connection per
 * request and crashes the process when the remote refuses the exec. Errors go to the request.
 */
export function createSshAgent(
  ssh: typeof import("ssh2"),
  config: ConnectConfig,
  maxSockets: number,
): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets });
  let connection: Promise<Client> | undefined;

  /** The shared SSH connection, opened on first use and again after it closed or failed. */
  const connect = (): Promise<Client> => {
    connection ??= new Promise<Client>((resolve, reject) => {
      const client = new ssh.Client();
      const forget = () => {
        connection = undefined;
      };
      client.once("ready", () => resolve(client));
      client.on("error", (error) => {
        forget();
        reject(error);
      });
      client.once("close", forget);
      client.connect({ readyTimeout: 10_000, ...config });
    });
    return connection;
  };

  agent.createConnection = (
    _options: unknown,
    callback: (error: Error | null, socket?: Duplex) => void,
  ) => {
    connect().then(
      (client) =>
        client.exec("docker system dial-stdio", (error, channel) => {
          // `level`, as ssh2 marks its own errors, so that the message says what failed.
          if (error)
            return callback(
              Object.assign(new Error(error.message), {
                level: "the host refused docker system dial-stdio",
              }),
            );
          // http wants a socket; a channel has no timers or Nagle to set.
          Object.assign(channel, {
            setTimeout: () => channel,
            setNoDelay: () => channel,
            setKeepAlive: () => channel,
            ref: () => channel,
            unref: () => channel,
          });
          callback(null, channel);
        }),
      (error: Error) => callback(error),
    );
    return undefined;
  };

  const destroy = agent.destroy.bind(agent);
  agent.destroy = () => {
    destroy();
    connection?.then(
      (client) => client.end(),
      () => {},
    );
    connection = undefined;
  };
  return agent;
}
