import { connect, createServer, type Server, type Socket } from "node:net";
import { loadFleet, type Fleet, type FleetOptions } from "../../src/core/engine/fleet.ts";
import { engines, writeConfig } from "./helpers.ts";

/** A loopback TCP proxy in front of an engine: it counts requests, adds latency, and can cut the link. */
export interface LinkProxy {
  port: number;
  /** Request lines seen from docklens to the engine, in order (`GET /containers/json?all=1`). */
  requests: string[];
  /** Connections docklens closed before the engine's answer went back: work it cancelled. */
  cancelled: number;
  /** Pass on the held requests whose line matches `lines`: the engine answers them now. */
  release(lines: RegExp): void;
  /** Drop every connection and stop listening: the link is cut. */
  cut(): Promise<void>;
  /** Listen again on the same port: the link is back. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Proxy to the engine at `target` (TCP `{ port }` or `{ path }` of a unix socket), delaying answers
 * by `delayMs`; requests whose line matches `hold` are not passed on until `release` names them:
 * the engine hangs on them (a RegExp, or a test that turns holding on later).
 */
export async function startProxy(
  target: { port: number } | { path: string },
  delayMs = 0,
  hold?: { test(line: string): boolean },
): Promise<LinkProxy> {
  const sockets = new Set<Socket>();
  /** The held requests: their lines, and how to pass them on. */
  const held = new Set<{ lines: string[]; pass: () => void }>();
  const release = (lines: RegExp) => {
    for (const request of held)
      if (request.lines.some((line) => lines.test(line))) {
        held.delete(request);
        request.pass();
      }
  };
  const proxy: LinkProxy = {
    port: 0,
    requests: [],
    cancelled: 0,
    release,
    cut,
    restore,
    close: cut,
  };
  let server: Server;

  const handle = (client: Socket) => {
    const engine = "port" in target ? connect(target.port, "127.0.0.1") : connect(target.path);
    let answered = false;
    sockets.add(client).add(engine);
    client.on("data", (chunk: Buffer) => {
      const lines = [
        ...chunk
          .toString("latin1")
          .matchAll(/^(GET|HEAD|POST|PUT|DELETE) (\S+) HTTP\/1\.[01]\r$/gm),
      ].map((match) => `${match[1]} ${match[2]}`);
      proxy.requests.push(...lines);
      if (lines.some((line) => hold?.test(line)))
        held.add({ lines, pass: () => !engine.destroyed && engine.write(chunk) });
      else engine.write(chunk);
    });
    engine.on("data", (chunk: Buffer) =>
      setTimeout(() => {
        answered = true;
        if (!client.destroyed) client.write(chunk);
      }, delayMs),
    );
    const end = () => {
      if (!answered) proxy.cancelled++;
      client.destroy();
      engine.destroy();
      sockets.delete(client);
      sockets.delete(engine);
    };
    client.on("close", end).on("error", end);
    engine.on("close", () => setTimeout(() => client.destroy(), delayMs)).on("error", end);
  };

  async function listen(port: number): Promise<void> {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    proxy.port = (server.address() as { port: number }).port;
  }
  async function cut(): Promise<void> {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => server.close(resolve));
  }
  async function restore(): Promise<void> {
    await listen(proxy.port);
  }

  await listen(0);
  return proxy;
}

/** Engine A behind a recording link, and the fleet of a config that names it `linked`. */
export interface LinkedFleet {
  proxy: LinkProxy;
  fleet: Fleet;
}

/**
 * Start a link in front of engine A and load a fleet from the config `file` (in the scratch dir)
 * naming it `linked`; `shape` makes the config around that cluster (more clusters, tokens).
 * The caller closes both.
 */
export async function linkedFleet(
  file: string,
  options: FleetOptions = {},
  shape: (linked: object) => object = (linked) => ({ clusters: [linked] }),
): Promise<LinkedFleet> {
  const proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
  const configPath = await writeConfig(
    file,
    shape({ name: "linked", host: "127.0.0.1", port: proxy.port }),
  );
  return { proxy, fleet: await loadFleet({ configPath, ...options }) };
}
