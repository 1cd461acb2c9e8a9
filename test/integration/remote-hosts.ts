import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { createServer } from "node:tls";
import ssh2 from "ssh2";
import { certificates } from "../support/certificates.ts";
import { engines } from "./helpers.ts";

const { Server, utils } = ssh2;

/**
 * An SSH server on loopback standing in for an engine's host: it accepts one client key and
 * answers `docker system dial-stdio` by joining the channel to engine B's socket, as the docker
 * CLI on a real host does; with `refuse`, it refuses the exec.
 */
export async function sshHost(options: {
  refuse: boolean;
  clientPublicKey: string;
}): Promise<{ port: number; close(): void }> {
  const hostKey = sshKeyPair();
  const allowed = utils.parseKey(options.clientPublicKey) as ssh2.ParsedKey;
  const server = new Server({ hostKeys: [hostKey.private] }, (client) => {
    client.on("authentication", (ctx) => {
      const ok =
        ctx.method === "publickey" &&
        ctx.key.algo === allowed.type &&
        ctx.key.data.equals(allowed.getPublicSSH()) &&
        (!ctx.signature || allowed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true);
      return ok ? ctx.accept() : ctx.reject(["publickey"]);
    });
    client.on("ready", () =>
      client.on("session", (accept) =>
        accept().on("exec", (acceptExec, rejectExec, info) => {
          if (options.refuse || info.command !== "docker system dial-stdio") return rejectExec();
          const channel = acceptExec();
          const engine = connect(engines.adminB.replace("unix://", ""));
          channel.pipe(engine).pipe(channel);
          engine.on("close", () => channel.close()).on("error", () => channel.close());
          channel.on("close", () => engine.destroy());
        }),
      ),
    );
    client.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

/**
 * Engine B behind mutual TLS, as `dockerd --tlsverify` serves it on 2376: a TLS server on
 * loopback that wants a client certificate from its CA and joins each connection to B's socket.
 * Makes in `dir` the CA `ca`, the server's certificate and a client's (`client.pem`, `client.key`),
 * and another CA with a client it does not trust (`other-ca`, `stranger`).
 */
export async function tlsEngine(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  await certificates(dir, "ca", ["server", "client"]);
  await certificates(dir, "other-ca", ["stranger"]);
  const file = (name: string) => readFile(join(dir, name));
  const server = createServer(
    {
      key: await file("server.key"),
      cert: await file("server.pem"),
      ca: await file("ca.pem"),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (socket) => {
      const engine = connect(engines.adminB.replace("unix://", ""));
      socket.pipe(engine).pipe(socket);
      socket.on("error", () => engine.destroy());
      engine.on("error", () => socket.destroy());
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * An ed25519 key pair in OpenSSH's format. ssh2's generator writes a private key its own parser
 * refuses ("Malformed OpenSSH private key") about once in 200: take the next one then.
 */
export function sshKeyPair(): { private: string; public: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (!(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}
