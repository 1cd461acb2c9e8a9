import { readFile } from "node:fs/promises";
import { connect, createServer } from "node:net";

/** A loopback port that nothing listens on now, to start a server on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A loopback port that refuses connections and goes on refusing them, for a dead engine or node:
 * below the range the kernel picks ports 0 from (ip_local_port_range), so no server of this run
 * or of a run beside it takes it, as one took a port {@link freePort} had found free (a recording
 * link of another run then answered for "dead", and counted its requests as its own).
 */
export async function closedPort(): Promise<number> {
  const range = await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
  const first = Number(range.trim().split(/\s+/)[0]);
  const low = Math.min(10_000, Math.floor(first / 2));
  for (;;) {
    const port = low + Math.floor(Math.random() * (first - low));
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
