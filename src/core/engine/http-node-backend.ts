// The backend of a cluster that lives on a node (docs/guide/nodes.md): each engine read the core
// makes goes to the node's serve as `GET /node/<cluster>/engine/<path>`, with the node's token.
// Answers and failures come back shaped as the Docker backend's, so the core cannot tell.
import type { Agent, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { NodeLink } from "../config/cluster-config.ts";
import type { NodeConfig } from "../config/nodes-schema.ts";
import { DocklensError, type ErrorCode } from "../errors.ts";
import { readSecretFile } from "../config/file-errors.ts";
import { parseJsonOrText } from "../json.ts";
import type { EngineBackend, EngineGetOptions } from "./engine-backend.ts";
import { MAX_SOCKETS, readKeyFile, type EnginePurpose } from "./engine-pools.ts";

/** A node's own errors a hub passes on as they are: the node's engine is away, slow or busy. */
const PASSED_ON = new Set<ErrorCode>([
  "ENGINE_UNREACHABLE",
  "ENGINE_TIMEOUT",
  "ENGINE_ERROR",
  "STREAM_POOL_FULL",
]);

/**
 * Build the backend of a node's cluster: node:http or node:https with an agent per purpose, as
 * the Docker backend has, the node's TLS files, `Authorization: Bearer` the node's token (a
 * token file read on each request, so that a rotated token is used at once).
 */
export async function createHttpNodeBackend(
  link: NodeLink,
  node: NodeConfig,
  purpose: EnginePurpose,
): Promise<EngineBackend> {
  const secure = node.url.startsWith("https:");
  const [ca, cert, key] = await Promise.all(
    [node.tls?.ca, node.tls?.cert, node.tls?.key].map(readKeyFile),
  );
  const module = process.getBuiltinModule(secure ? "node:https" : "node:http");
  const agent: Agent = new module.Agent({
    keepAlive: purpose !== "stream",
    maxSockets: MAX_SOCKETS[purpose],
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
  });
  const read = (path: string, signal: AbortSignal, options: EngineGetOptions = {}) => {
    // Read at each call: the link changes as the hub hears from the node (node-clusters.ts).
    const remote = link.cluster;
    if (remote === undefined) {
      const error = link.error;
      return Promise.reject(
        new DocklensError(
          error?.code ?? "ENGINE_UNREACHABLE",
          `node "${link.name}" was never reached${error ? `: ${error.message}` : ""}`,
        ),
      );
    }
    return nodeRequest(
      link.name,
      node,
      agent,
      `/node/${encodeURIComponent(remote)}/engine${path}${queryString(options.query)}`,
      signal,
      options.stream ?? false,
    );
  };
  return {
    get: read,
    attach: async (id, signal) =>
      (await read(`/containers/${encodeURIComponent(id)}/attach`, signal, {
        stream: true,
      })) as Readable,
    close: () => agent.destroy(),
  };
}

/**
 * `GET path` of the node's serve: the parsed JSON (64-bit integers kept exact), or with `stream`
 * the response once the node answered 200. An engine's refusal the node passed on (its
 * `engine: { status, body }`) throws `{ statusCode, json }` as the Docker backend does; a
 * node's own refusal throws its code
 * (those of its engine as they are, the others as `ENGINE_ERROR`); transport errors as they are.
 */
export async function nodeRequest(
  name: string,
  node: NodeConfig,
  agent: Agent,
  path: string,
  signal: AbortSignal,
  stream: boolean,
): Promise<unknown> {
  const token = await readToken(node);
  const module = process.getBuiltinModule(
    node.url.startsWith("https:") ? "node:https" : "node:http",
  );
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = module.get(
      `${node.url}${path}`,
      { agent, signal, headers: { authorization: `Bearer ${token}`, accept: "application/json" } },
      resolve,
    );
    request.on("error", reject);
  });
  if (stream && response.statusCode === 200) return response;
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const body = parseJsonOrText(text);
  if (response.statusCode === 200) return body;
  const answer = body as {
    engine?: { status?: unknown; body?: unknown };
    error?: { code?: ErrorCode; message?: string };
  };
  if (typeof answer?.engine?.status === "number")
    throw Object.assign(new Error(`the engine answered ${answer.engine.status}`), {
      statusCode: answer.engine.status,
      json: answer.engine.body,
    });
  const code = answer?.error?.code;
  const said = answer?.error?.message ?? "no message";
  const message = `node "${name}" answered ${response.statusCode}${code ? ` ${code}` : ""}: ${said}`;
  throw new DocklensError(code && PASSED_ON.has(code) ? code : "ENGINE_ERROR", message);
}

/** `?a=1&type=x&type=y` of an engine query as the Docker backend sends it; `""` for none. */
function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    for (const item of [value].flat() as Array<string | number | boolean | undefined>)
      if (item !== undefined) params.append(key, String(item));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The node's token, from its variable or its file (trimmed: a file ends with a newline). */
async function readToken(node: NodeConfig): Promise<string> {
  if ("env" in node.token) {
    const token = process.env[node.token.env];
    if (!token)
      throw new DocklensError(
        "ENGINE_UNREACHABLE",
        `the token of node "${node.name}" is not set (${node.token.env})`,
      );
    return token;
  }
  try {
    return (await readSecretFile(node.token.file)).toString("utf8").trim();
  } catch (error) {
    throw new DocklensError(
      "ENGINE_UNREACHABLE",
      `cannot read the token file of node "${node.name}" (${(error as Error).message})`,
    );
  }
}
