import { describe, expect, it } from "vitest";
import type { ClusterConfig } from "../../src/core/config/cluster-config.ts";
import { translateEngineError } from "../../src/core/engine/engine.ts";
import { DocklensError } from "../../src/core/errors.ts";

const cluster: ClusterConfig = {
  id: 1,
  name: "prod",
  icon: "",
  host: "10.0.0.5",
  protocol: "http",
  hostname: "10.0.0.5",
  port: 2375,
  timeoutMs: 1500,
  maxConcurrency: 8,
  cacheTtlMs: 0,
  diskUsageTimeoutMs: 60_000,
  source: "config",
};
const statuses = {
  404: {
    code: "CONTAINER_NOT_FOUND" as const,
    message: 'container "web" not found in cluster "prod"',
  },
  409: {
    code: "CONTAINER_NOT_RUNNING" as const,
    message: 'container "web" of cluster "prod" is not running',
  },
};
const errno = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe("translateEngineError", () => {
  it.each([
    [
      "a time limit",
      new Error("aborted"),
      { timedOut: true },
      "ENGINE_TIMEOUT",
      504,
      'the engine of cluster "prod" (http://10.0.0.5:2375) did not answer within 1500 ms',
    ],
    [
      "a 404 with a meaning",
      { statusCode: 404, json: { message: "No such container: web" } },
      { statuses },
      "CONTAINER_NOT_FOUND",
      404,
      'container "web" not found in cluster "prod"',
    ],
    [
      "a 409 with a meaning",
      { statusCode: 409, json: { message: "is not running" } },
      { statuses },
      "CONTAINER_NOT_RUNNING",
      409,
      'container "web" of cluster "prod" is not running',
    ],
    [
      "a 404 without one",
      { statusCode: 404, json: { message: "page not found" } },
      {},
      "ENGINE_ERROR",
      502,
      'the engine of cluster "prod" (http://10.0.0.5:2375) answered 404: page not found',
    ],
    [
      "a 500",
      { statusCode: 500, json: { message: "boom" } },
      { statuses },
      "ENGINE_ERROR",
      502,
      'the engine of cluster "prod" (http://10.0.0.5:2375) answered 500: boom',
    ],
    [
      "a refused connection",
      errno("ECONNREFUSED"),
      {},
      "ENGINE_UNREACHABLE",
      502,
      'cannot reach the engine of cluster "prod" (http://10.0.0.5:2375): connection refused',
    ],
    ["a reset", errno("ECONNRESET"), {}, "ENGINE_UNREACHABLE", 502, /connection reset$/],
    ["a missing socket", errno("ENOENT"), {}, "ENGINE_UNREACHABLE", 502, /no such socket$/],
    ["an unknown host", errno("ENOTFOUND"), {}, "ENGINE_UNREACHABLE", 502, /unknown host$/],
    [
      "a TLS failure",
      errno("ERR_TLS_CERT_ALTNAME_INVALID"),
      {},
      "ENGINE_UNREACHABLE",
      502,
      /TLS failure \(ERR_TLS_CERT_ALTNAME_INVALID\)$/,
    ],
    [
      "a self-signed certificate",
      errno("DEPTH_ZERO_SELF_SIGNED_CERT"),
      {},
      "ENGINE_UNREACHABLE",
      502,
      /TLS failure/,
    ],
    ["a hang-up", new Error("socket hang up"), {}, "ENGINE_UNREACHABLE", 502, /connection closed$/],
    [
      "a cancelled call",
      Object.assign(new Error("aborted"), { name: "AbortError" }),
      {},
      "ENGINE_ERROR",
      502,
      /was cancelled$/,
    ],
  ] as const)("%s", (_label, error, context, code, status, message) => {
    const translated = translateEngineError(error, cluster, context);
    expect(translated).toBeInstanceOf(DocklensError);
    expect(translated.code).toBe(code);
    expect(translated.status).toBe(status);
    // The engine's own error stays at hand for debugging, never in what users see.
    expect(translated.cause).toBe(error);
    if (typeof message === "string") expect(translated.message).toBe(message);
    else expect(translated.message).toMatch(message);
  });

  it("passes a DocklensError through unchanged", () => {
    const error = new DocklensError("INVALID_NAME", "bad");
    expect(translateEngineError(error, cluster, { timedOut: true })).toBe(error);
  });

  it("keeps its cause out of the error body", () => {
    const cause = errno("ECONNREFUSED");
    const error = new DocklensError("ENGINE_UNREACHABLE", "cannot reach it", { cause });
    expect(error.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: "ENGINE_UNREACHABLE",
      message: "cannot reach it",
    });
    expect("cause" in new DocklensError("INVALID_NAME", "bad")).toBe(false);
  });

  it("serialises to the error body", () => {
    expect(
      JSON.parse(JSON.stringify(new DocklensError("ROUTE_NOT_FOUND", "no route GET /x"))),
    ).toEqual({ code: "ROUTE_NOT_FOUND", message: "no route GET /x" });
  });
});
