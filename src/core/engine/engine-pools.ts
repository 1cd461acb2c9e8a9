// The pools of connections each engine backend keeps (engine-client.ts, http-node-backend.ts),
// and the key files they read.

/**
 * Connections a client opens to its engine at most: calls wait for a free keep-alive socket,
 * while streams (logs --follow, stats, attach) last long and so use a pool of their own, so that
 * many open streams never starve the calls. Stats samples of many containers (each waits about a
 * second for the engine's second reading) have a keep-alive pool of their own, for the same reason.
 */
export const MAX_SOCKETS = { call: 16, stream: 256, sample: 64 } as const;

/** Engine streams a cluster holds open at most: past them, docklens refuses (engine-stream.ts). */
export const MAX_ENGINE_STREAMS = MAX_SOCKETS.stream;

/**
 * Which connections an engine client uses: calls share a small keep-alive pool; streams and
 * stats samples have their own.
 */
export type EnginePurpose = keyof typeof MAX_SOCKETS;

/** A TLS or SSH file of a cluster; its message names the kind of failure, never the path. */
export async function readKeyFile(path: string | undefined): Promise<Buffer | undefined> {
  if (!path) return undefined;
  try {
    // Loaded here: node:fs/promises costs a CLI run ~3 ms, and only key files need it.
    return await process.getBuiltinModule("node:fs/promises").readFile(path);
  } catch (error) {
    // The message names the kind of failure only: key paths never leave docklens
    // (docs/http-interface.md, "Secrets").
    throw new Error(
      `cannot read a TLS/SSH file of this cluster (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      { cause: error },
    );
  }
}
