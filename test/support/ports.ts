import { readFile } from "node:fs/promises";
import { connect } from "node:net";

/** The ports this process was given, none twice. */
const given = new Set<number>();

/**
 * A loopback port that refuses connections now, for a server started on it later (a `nats-server`,
 * an engine on TCP, a node started again) or for a dead engine or node. It is below the range the
 * kernel picks ports 0 from (`ip_local_port_range`), so no server of this run or of a run beside
 * it takes it meanwhile, as one took a port found free in that range: a recording link of another
 * run then answered for "dead", and counted its requests as its own.
 */
export async function freePort(): Promise<number> {
  const range = await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
  const first = Number(range.trim().split(/\s+/)[0]);
  const low = Math.min(10_000, Math.floor(first / 2));
  for (;;) {
    const port = low + Math.floor(Math.random() * (first - low));
    if (given.has(port)) continue;
    given.add(port);
    if (await refuses(port)) return port;
  }
}

/** True when a connection to the loopback port is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}
