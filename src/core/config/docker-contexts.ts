import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { compareStrings } from "../compare.ts";

/** A docker CLI context with a docker endpoint, as the context store holds it. */
export interface DockerContext {
  name: string;
  /** `Endpoints.docker.Host`: `unix://…`, `tcp://…`, `ssh://…`. */
  host: string;
  skipTLSVerify: boolean;
  /** The TLS files the store holds for its docker endpoint (paths of those that exist). */
  tls?: { ca?: string; cert?: string; key?: string };
}

/** What the docker CLI's context store says. */
export interface ContextStore {
  /** `$DOCKER_CONFIG`, else `~/.docker`. */
  dir: string;
  /** `currentContext` of `config.json`; `default` when it names none. */
  current: string;
  /** Its contexts with a docker endpoint, by name. */
  contexts: DockerContext[];
  /** Contexts that could not be read at all, one line each. */
  warnings: string[];
}

/**
 * Read the docker CLI's context store as the docker CLI does (docker/cli `context/store`): the
 * config dir is `$DOCKER_CONFIG`, else `~/.docker`; each context is
 * `contexts/meta/<sha256 of its name>/meta.json` (`Name`, `Endpoints.docker.Host`,
 * `Endpoints.docker.SkipTLSVerify`), its TLS files `contexts/tls/<same>/docker/{ca,cert,key}.pem`;
 * `currentContext` is in `config.json`. The store is listed, not looked up by hash: a store
 * without contexts costs one failed directory read.
 */
export function readContextStore(env: NodeJS.ProcessEnv): ContextStore {
  const dir = env.DOCKER_CONFIG || join(env.HOME || homedir(), ".docker");
  const warnings: string[] = [];
  const contexts: DockerContext[] = [];
  for (const digest of list(join(dir, "contexts", "meta"))) {
    let meta: {
      Name?: unknown;
      Endpoints?: { docker?: { Host?: unknown; SkipTLSVerify?: unknown } };
    };
    try {
      const file = join(dir, "contexts", "meta", digest, "meta.json");
      meta = JSON.parse(readFileSync(file, "utf8")) as typeof meta;
    } catch {
      warnings.push(
        `docker context in ${join(dir, "contexts", "meta", digest)} skipped: its meta.json cannot be read`,
      );
      continue;
    }
    const name = typeof meta?.Name === "string" ? meta.Name : undefined;
    const host = meta?.Endpoints?.docker?.Host;
    if (!name || typeof host !== "string") {
      warnings.push(
        `docker context ${JSON.stringify(name ?? digest)} skipped: it has no docker endpoint`,
      );
      continue;
    }
    const tlsDir = join(dir, "contexts", "tls", digest, "docker");
    const files = new Set(list(tlsDir));
    const tls = Object.fromEntries(
      (["ca", "cert", "key"] as const)
        .filter((file) => files.has(`${file}.pem`))
        .map((file) => [file, join(tlsDir, `${file}.pem`)]),
    );
    contexts.push({
      name,
      host,
      skipTLSVerify: meta.Endpoints!.docker!.SkipTLSVerify === true,
      ...(Object.keys(tls).length ? { tls } : {}),
    });
  }
  contexts.sort((a, b) => compareStrings(a.name, b.name));
  return { dir, current: currentContext(dir), contexts, warnings };
}

/** `currentContext` of the docker CLI's `config.json`; `default` when it has none. */
function currentContext(dir: string): string {
  try {
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as {
      currentContext?: unknown;
    };
    return typeof config.currentContext === "string" && config.currentContext
      ? config.currentContext
      : "default";
  } catch {
    return "default";
  }
}

/** The entries of a directory; none when it does not exist or cannot be read. */
function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
