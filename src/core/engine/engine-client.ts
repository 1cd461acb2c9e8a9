// The connection to one engine: dockerode's modem over a Unix socket, TCP, TLS or SSH, with its
// own pools of sockets. Only the fleet (fleet.ts) builds them.
import type Modem from "docker-modem";
import type Dockerode from "dockerode";
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { ClusterConfig } from "../config/cluster-config.ts";
import { parseJsonOrText } from "../json.ts";
import type { EngineBackend, EngineGetOptions } from "./engine-backend.ts";

import { MAX_SOCKETS, readKeyFile, type EnginePurpose } from "./engine-pools.ts";

export { MAX_ENGINE_STREAMS, type EnginePurpose } from "./engine-pools.ts";

/**
 * Build the backend of one cluster's engine: docker-modem, dockerode's modem, loaded here on first
 * use. Every read goes through the modem alone; dockerode itself (its containers, images,
 * services, plugins…) loads for an attach, which it makes: a CLI run that reads loads a third
 * of it.
 */
export async function createEngineClient(
  cluster: ClusterConfig,
  purpose: EnginePurpose = "call",
): Promise<EngineBackend> {
  // A cluster of a node: its reads go to the node's serve (docs/guide/nodes.md).
  const { node } = cluster;
  if (node?.http)
    return (await import("./http-node-backend.ts")).createHttpNodeBackend(node, node.http, purpose);
  // Any other node is over NATS, its link there or not (a node remembered while NATS is down).
  if (node) return (await import("./nats-node-backend.ts")).createNatsNodeBackend(node);
  const { default: Modem } = await import("docker-modem");
  // Not import("node:http"): its ESM namespace reads every export, and on Node 22 and later one
  // of them loads undici (fetch, WebSocket), which costs a CLI run about 25 ms.
  const http = process.getBuiltinModule("node:http");
  // SSH engines speak plain HTTP through the SSH agent below.
  const options: Modem.ConstructorOptions = {
    protocol:
      cluster.protocol === "unix" ? undefined : cluster.protocol === "https" ? "https" : "http",
  };
  let agent: import("node:http").Agent | undefined;
  if (cluster.protocol === "unix") {
    options.socketPath = cluster.socketPath;
  } else {
    options.host = cluster.hostname;
    options.port = cluster.port;
  }
  if (cluster.protocol === "https") {
    // `https://host` without a `tls` block: TLS with the system's CAs and no client certificate.
    const [ca, cert, key] = await Promise.all(
      [cluster.tls?.ca, cluster.tls?.cert, cluster.tls?.key].map(readKeyFile),
    );
    // A docker context's SkipTLSVerify: the engine's certificate is not checked, as the docker CLI then does not.
    const keys = {
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(cluster.tls?.insecure ? { rejectUnauthorized: false } : {}),
    };
    Object.assign(options, keys);
    const https = process.getBuiltinModule("node:https"); // TLS loads only for TLS engines.
    agent = new https.Agent({
      keepAlive: purpose !== "stream",
      maxSockets: MAX_SOCKETS[purpose],
      ...keys,
    });
  } else if (cluster.protocol === "ssh") {
    // Plain HTTP over our own SSH agent (see ssh-agent.ts); ssh2 loads only for SSH clusters.
    const [{ createSshAgent }, ssh, privateKey] = await Promise.all([
      import("./ssh-agent.ts"),
      import("ssh2"),
      readKeyFile(cluster.ssh?.privateKey),
    ]);
    const username = cluster.ssh?.username ?? cluster.username;
    const auth = privateKey
      ? { privateKey }
      : process.env.SSH_AUTH_SOCK
        ? { agent: process.env.SSH_AUTH_SOCK }
        : {};
    agent = createSshAgent(
      ssh.default ?? ssh,
      { host: cluster.hostname!, port: cluster.port, ...(username ? { username } : {}), ...auth },
      MAX_SOCKETS[purpose],
    );
  } else {
    // No TLS, so no server name: without one, Node derives it for every request and checks it
    // with net.isIP, whose IPv6 pattern costs a CLI run about 3 ms to compile on first use.
    agent = new http.Agent({
      keepAlive: purpose !== "stream",
      maxSockets: MAX_SOCKETS[purpose],
      servername: "",
    } as import("node:http").AgentOptions);
  }
  if (agent) {
    // docker-modem writes util.inspect(request options, { depth: null }) for its debug log on
    // every request, logging on or not: with the agent in them, that walks every open socket, so
    // each new request of a cluster with a hundred open streams cost seconds of CPU, and calls
    // timed out as if the engine were slow. The agent shows as its name alone.
    Object.defineProperty(agent, Symbol.for("nodejs.util.inspect.custom"), {
      value: () => `[docklens agent of ${cluster.name} (${purpose})]`,
    });
    options.agent = agent;
  }
  const modem = withoutDockerHost(() => new Modem(options));
  return {
    get: (path, signal, getOptions) => dialDocker(modem, path, signal, getOptions),
    attach: async (id, signal) => {
      const { default: Docker } = await import("dockerode");
      // dockerode takes the modem to use (docker.js); @types/dockerode 4 does not declare it.
      const docker = new Docker({ modem } as Dockerode.DockerOptions);
      return (await docker.getContainer(id).attach({
        stream: true,
        stdin: false,
        stdout: true,
        stderr: true,
        logs: false,
        abortSignal: signal,
      })) as unknown as Readable;
    },
    close: () => agent?.destroy(),
  };
}

/**
 * `make()` with `DOCKER_HOST` unset. docker-modem reads it for defaults of its own on every
 * client, beneath the options docklens passes: an address it cannot parse (`:2375`, which the
 * docker CLI takes) throws, and with `DOCKER_CERT_PATH` set it reads the TLS files there for
 * every engine, plain ones too (and fails where the docker CLI ignores them). docklens has
 * already read the docker environment as the docker CLI does (discovery.ts); unset, the modem
 * reads nothing. Synchronous: no other code runs while the variable is away.
 */
function withoutDockerHost<T>(make: () => T): T {
  const saved = process.env.DOCKER_HOST;
  delete process.env.DOCKER_HOST;
  try {
    return make();
  } finally {
    if (saved !== undefined) process.env.DOCKER_HOST = saved;
  }
}

/** Every HTTP status, so that docker-modem hands docklens the body of any answer to read itself. */
const ANY_STATUS = Object.fromEntries(
  Array.from({ length: 500 }, (_, index) => [index + 100, true]),
);

/**
 * A GET through docker-modem, the one way docklens asks an engine for something: with the
 * abort signal wired (some dockerode methods drop it), and the body read by docklens itself, so
 * that JSON is parsed with 64-bit integers kept exact (parseEngineJson). `stream`
 * returns the body as a stream once the engine answered 200; otherwise the parsed JSON. Any
 * other status throws `{ statusCode, json }` for translateEngineError. `path` holds only
 * names already checked and encoded.
 */
async function dialDocker(
  modem: Modem,
  path: string,
  signal: AbortSignal,
  options: EngineGetOptions = {},
): Promise<unknown> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    modem.dial(
      {
        path: `${path}?`,
        method: "GET",
        options: { ...options.query },
        isStream: true,
        abortSignal: signal,
        statusCodes: ANY_STATUS,
      },
      (error: Error | null, body: unknown) =>
        error ? reject(error) : resolve(body as IncomingMessage),
    );
  });
  if (options.stream && response.statusCode === 200) return response;
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (response.statusCode === 200) return parseJsonOrText(text);
  throw Object.assign(new Error(`the engine answered ${response.statusCode}`), {
    statusCode: response.statusCode,
    json: parseJsonOrText(text),
  });
}
