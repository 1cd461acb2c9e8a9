import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { toNodeListener } from "h3";
import { afterAll, beforeAll } from "vitest";
import { countEngineStreams } from "../../src/core/engine/engine-stream.ts";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import {
  createApp,
  formatRequestLog,
  MAX_HEADER_BYTES,
  refuseConnect,
  refuseUnreadable,
  type CreateAppOptions,
} from "../../src/server/app.ts";
import { engines } from "./helpers.ts";

export interface TestServer {
  url: string;
  port: number;
  logs: string[];
  close(): Promise<void>;
}

/** The app on an ephemeral loopback port, over the test config. */
export async function startServer(options: Partial<CreateAppOptions> = {}): Promise<TestServer> {
  const fleet = options.fleet ?? (await loadFleet({ configPath: engines.configPath }));
  const logs: string[] = [];
  // Hosted as docklens serve hosts it.
  const server: Server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES },
    toNodeListener(
      createApp({ log: (entry) => logs.push(formatRequestLog(entry)), ...options, fleet }),
    ),
  )
    .on("connect", refuseConnect)
    .on("clientError", refuseUnreadable(options.cors ? { cors: options.cors } : {}));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fleet.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
  /** The body's bytes as they came, compressed or not. */
  body: Buffer;
}

/** The app the tests of one file ask: started before them, closed after them. */
export interface FileServer {
  /** Its port, once started. */
  readonly port: number;
  /** Its request log, once started. */
  readonly logs: string[];
  /** GET `path` of it, byte for byte (see {@link raw}). */
  get: (path: string, headers?: Record<string, string>) => Promise<RawResponse>;
}

/** Start the app for the tests of this file (in `beforeAll`), and close it after them. */
export function serverForFile(options: Partial<CreateAppOptions> = {}): FileServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(options);
  });
  afterAll(() => server?.close());
  return {
    get port() {
      return server!.port;
    },
    get logs() {
      return server!.logs;
    },
    get: (path, headers) => raw(server!.port, path, { headers }),
  };
}

/** A request whose path goes out byte for byte as given (fetch would normalise `..` and `%2e`). */
export function raw(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const text = body.toString();
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, body });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Open an NDJSON stream, collect `count` objects, then leave as a client would (or wait for its end). */
export function readStream(
  port: number,
  path: string,
  count = Infinity,
  timeoutMs = 15_000,
): Promise<{ status: number; type: string | undefined; items: any[]; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const items: any[] = [];
    let pending = "";
    const timer = setTimeout(
      () =>
        reject(
          new Error(`no ${count} items from ${path} in ${timeoutMs} ms (got ${items.length})`),
        ),
      timeoutMs,
    );
    const req = request({ host: "127.0.0.1", port, path }, (res: IncomingMessage) => {
      const done = (ended: boolean) => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, type: res.headers["content-type"], items, ended });
      };
      res.on("data", (chunk: Buffer) => {
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop()!;
        items.push(...lines.filter(Boolean).map((line) => JSON.parse(line)));
        if (items.length >= count) {
          req.destroy();
          done(false);
        }
      });
      res.on("end", () => done(true));
    });
    req.on("error", (error) => (items.length >= count ? undefined : reject(error)));
    req.end();
  });
}

/** Engine streams drain asynchronously after a client leaves; wait for none to be open. */
export async function noEngineStreamsLeft(): Promise<number> {
  for (let i = 0; i < 50 && countEngineStreams() > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return countEngineStreams();
}
