// The seam between docklens and a cluster: every engine read the core makes goes through one of
// these, whatever stands behind the cluster (a Docker or Podman engine today; a remote docklens
// over HTTP or NATS in issue 27). The resources never branch on what it is.
import type { Readable } from "node:stream";

/** Options of {@link EngineBackend.get}. */
export interface EngineGetOptions {
  /** The query string's parameters, as the engine API names them. */
  query?: object;
  /** Return the body as a stream once the engine answered 200 (logs, stats, events). */
  stream?: boolean;
}

/**
 * How docklens reaches the engine of one cluster: reads only. A failed read throws either an
 * error with `statusCode` and the engine's parsed `json` body, or a transport error (`code`
 * such as `ECONNREFUSED`), which `translateEngineError` turns into docklens's codes.
 */
export interface EngineBackend {
  /**
   * `GET path` of the engine API (`path` holds only names already checked and encoded): the
   * parsed JSON body (64-bit integers kept exact), or with `stream` the body as a stream.
   */
  get(path: string, signal: AbortSignal, options?: EngineGetOptions): Promise<unknown>;
  /** The live output of a running container, read-only: stdout and stderr, never stdin. */
  attach(id: string, signal: AbortSignal): Promise<Readable>;
  /** Close the backend's idle connections. */
  close(): void;
}
