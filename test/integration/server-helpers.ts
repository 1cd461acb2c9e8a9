import { createServer, request, type Server } from "node:http";
import { toNodeListener } from "h3";
import { loadFleet } from "../../src/core/fleet.ts";
import {
  createApp,
  formatRequestLog,
  refuseConnect,
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
  const server: Server = createServer(
    toNodeListener(
      createApp({ log: (entry) => logs.push(formatRequestLog(entry)), ...options, fleet }),
    ),
  ).on("connect", refuseConnect);
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
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
