import "vitest";

/** What the global setup provides to the integration tests. */
export interface TestEngines {
  /** DOCKER_HOST of engine A (unix socket) and B (TCP on loopback). */
  hostA: string;
  hostB: string;
  /** Unix socket of B too, for docker CLI calls the tests make as the oracle. */
  adminB: string;
  /** DOCKER_HOST of a Podman engine (its Docker-compatible API), and a config naming it `pod`. */
  hostP: string;
  podmanConfigPath: string;
  /** A config file naming alpha (A), bravo (B, id 7), dead (closed port) and hang (never answers). */
  configPath: string;
  /** The time limits of the dead and hanging clusters. */
  deadTimeoutMs: number;
  hangTimeoutMs: number;
  /** The time limit of a cluster on Podman: its /info reads its whole store, past 5 s under load. */
  podTimeoutMs: number;
  /** A scratch directory the tests may write into. */
  tmp: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    engines: TestEngines;
  }
}
