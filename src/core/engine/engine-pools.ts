// The pools of connections each engine backend keeps (engine-client.ts, http-node-backend.ts),
// and the key files they read.

import { readSecretFile } from "../config/file-errors.ts";

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

/**
 * A TLS or SSH file of a cluster (or of a node) that could not be read as its client was built. The
 * message names the kind of failure only: key paths never leave docklens
 * (docs/http-interface.md, "Secrets").
 */
export class KeyFileError extends Error {}

/** A TLS or SSH file of a cluster or node; a FIFO or device is refused. Throws {@link KeyFileError}. */
export async function readKeyFile(path: string | undefined): Promise<Buffer | undefined> {
  if (!path) return undefined;
  try {
    return await readSecretFile(path);
  } catch (error) {
    throw new KeyFileError(`cannot read its TLS or SSH file (${(error as Error).message})`, {
      cause: error,
    });
  }
}
