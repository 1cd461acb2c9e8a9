import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_TUNING, toClusterConfig } from "../../src/core/config/cluster-config.ts";
import { parseEndpoint } from "../../src/core/config/endpoint.ts";
import { createFleet } from "../../src/core/engine/fleet.ts";
import { answerEngineRead, checkPath, type NodeRead } from "../../src/core/node/engine-read.ts";

/**
 * The node's allow-list, without an engine: every refusal comes before any engine call, so the
 * cluster's engine is a socket that does not exist (a read that passed would fail to reach it,
 * with ENGINE_UNREACHABLE, which these tables never expect).
 */
const cluster = toClusterConfig(
  { id: 1, name: "alpha", host: "/nonexistent/docklens-test.sock" },
  parseEndpoint("/nonexistent/docklens-test.sock"),
  { ...DEFAULT_TUNING, timeoutMs: 500 },
);
const fleet = createFleet({ clusters: [cluster], showSecrets: false, source: null, warnings: [] });

describe("checkPath", () => {
  it.each([
    ["/version", "/version", "/version"],
    ["/containers/json", "/containers/json", "/containers/json"],
    ["/containers/web/json", "/containers/{container}/json", "/containers/web/json"],
    ["/containers/%2Fweb/logs", "/containers/{container}/logs", "/containers/web/logs"],
    ["/containers/abc123/stats", "/containers/{container}/stats", "/containers/abc123/stats"],
    ["/containers/web/top", "/containers/{container}/top", "/containers/web/top"],
    [
      "/images/local%2Fbusybox%3A1/json",
      "/images/{image}/json",
      "/images/local%2Fbusybox%3A1/json",
    ],
    ["/images/local/busybox%3A1/json", "/images/{image}/json", "/images/local%2Fbusybox%3A1/json"],
    ["/volumes/data", "/volumes/{volume}", "/volumes/data"],
    ["/networks/bridge", "/networks/{network}", "/networks/bridge"],
    ["/system/df", "/system/df", "/system/df"],
    ["/events", "/events", "/events"],
  ])("%s is %s, sent as %s", (path, template, sent) => {
    expect(checkPath(path)).toEqual({ template, path: sent });
  });

  it.each([
    ["/containers/web/exec", "READ_NOT_ALLOWED"],
    ["/containers/web/archive", "READ_NOT_ALLOWED"],
    ["/containers/web/export", "READ_NOT_ALLOWED"],
    ["/containers/web/attach", "READ_NOT_ALLOWED"],
    ["/containers/create", "READ_NOT_ALLOWED"],
    ["/containers/web/json/extra", "READ_NOT_ALLOWED"],
    ["/exec/abc/json", "READ_NOT_ALLOWED"],
    ["/images/web/get", "READ_NOT_ALLOWED"],
    ["/v1.41/containers/json", "READ_NOT_ALLOWED"],
    ["/_ping", "READ_NOT_ALLOWED"],
    ["/session", "READ_NOT_ALLOWED"],
    ["/swarm", "READ_NOT_ALLOWED"],
    ["containers/json", "READ_NOT_ALLOWED"],
    ["", "READ_NOT_ALLOWED"],
    ["/", "READ_NOT_ALLOWED"],
    ["/containers/{container}/json", "INVALID_NAME"],
    ["/containers/../images/json", "READ_NOT_ALLOWED"],
    ["/containers/../json", "INVALID_NAME"],
    ["/containers/%2e%2e/json", "INVALID_NAME"],
    ["/containers/..%2Fimages/json", "INVALID_NAME"],
    ["/containers/%252e%252e/json", "INVALID_NAME"],
    ["/containers/web%3Fall%3D1/json", "INVALID_NAME"],
    ["/containers/%zz/json", "INVALID_NAME"],
    ["/volumes/..", "INVALID_NAME"],
    ["/networks/a%00b", "INVALID_NAME"],
    ["/images/..%2F..%2Fsecrets/json", "INVALID_NAME"],
    ["/images/UPPER/json", "INVALID_NAME"],
  ])("%s is refused: %s", (path, code) => {
    expect(() => checkPath(path)).toThrow(expect.objectContaining({ code }));
  });
});

describe("answerEngineRead refuses before any engine call", () => {
  const read = (path: string, query: Record<string, string | string[]> = {}, stream?: boolean) =>
    ({ cluster: "alpha", path, query, ...(stream === undefined ? {} : { stream }) }) as NodeRead;
  it.each<[string, NodeRead, string]>([
    ["an unknown key", read("/containers/json", { all: "1", exec: "1" }), "READ_NOT_ALLOWED"],
    ["a key of another read", read("/version", { all: "1" }), "READ_NOT_ALLOWED"],
    [
      "a prototype key",
      read("/containers/json", Object.fromEntries([["__proto__", "1"]])),
      "READ_NOT_ALLOWED",
    ],
    ["a boolean that is none", read("/containers/json", { all: "yes" }), "INVALID_QUERY"],
    ["a key given twice", read("/containers/json", { all: ["1", "1"] }), "INVALID_QUERY"],
    ["ps_args e", read("/containers/web/top", { ps_args: "auxe" }), "INVALID_QUERY"],
    ["ps_args -ef -x", read("/containers/web/top", { ps_args: "-ef -x" }), "INVALID_QUERY"],
    ["ps_args a shell", read("/containers/web/top", { ps_args: "-ef; id" }), "INVALID_QUERY"],
    ["filters not JSON", read("/containers/json", { filters: "{" }), "INVALID_QUERY"],
    [
      "filters of an unknown key",
      read("/containers/json", { filters: '{"x":["1"]}' }),
      "INVALID_QUERY",
    ],
    [
      "filters as a map",
      read("/containers/json", { filters: '{"name":{"a":true}}' }),
      "INVALID_QUERY",
    ],
    [
      "filters a bad value",
      read("/containers/json", { filters: '{"status":["zzz"]}' }),
      "INVALID_QUERY",
    ],
    ["filters an array", read("/images/json", { filters: "[]" }), "INVALID_QUERY"],
    ["a tail that is none", read("/containers/web/logs", { tail: "-1" }, true), "INVALID_QUERY"],
    ["a time that is none", read("/events", { since: "yesterday" }, true), "INVALID_QUERY"],
    ["a df type unknown", read("/system/df", { type: ["image", "secrets"] }), "INVALID_QUERY"],
    ["logs read whole", read("/containers/web/logs", { follow: "1" }, false), "READ_NOT_ALLOWED"],
    [
      "stats streamed, read whole",
      read("/containers/web/stats", { stream: "1" }, false),
      "READ_NOT_ALLOWED",
    ],
    ["a list as a stream", read("/containers/json", {}, true), "READ_NOT_ALLOWED"],
    ["an unknown cluster", { cluster: "beta", path: "/version", query: {} }, "CLUSTER_NOT_FOUND"],
    ["a hostile cluster", { cluster: "../x", path: "/version", query: {} }, "INVALID_NAME"],
    ["an attach of a bad name", { cluster: "alpha", attach: "../x" }, "INVALID_NAME"],
  ])("%s", async (_, request, code) => {
    const before = fleet.slot(cluster).calls;
    await expect(answerEngineRead(request, { fleet })).rejects.toMatchObject({ code });
    expect(fleet.slot(cluster).calls).toBe(before);
  });

  const id = "a".repeat(64);
  const byId = JSON.stringify({ id: [id] });
  // A live fleet keeps mirrors: the engine away, its mirror is down and each read goes on as is.
  const live = createFleet(
    { clusters: [cluster], showSecrets: false, source: null, warnings: [] },
    { live: true, graceMs: 0 },
  );
  afterAll(() => live.close());
  it.each<[string, NodeRead, typeof fleet]>([
    ["a filtered list", read("/containers/json", { filters: '{"status":["running"]}' }), fleet],
    ["a list by full id, live", read("/containers/json", { all: "1", filters: byId }), live],
    ["the whole list, live", read("/containers/json", { all: "1" }), live],
    ["the version", read("/version"), fleet],
    ["the version, live", read("/version"), live],
    ["an inspect by id", read(`/containers/${id}/json`), fleet],
    ["an inspect by id, live", read(`/containers/${id}/json`), live],
    ["an inspect by name, live", read("/containers/web/json"), live],
  ])("lets %s reach the engine (here none)", async (_, request, used) => {
    await expect(answerEngineRead(request, { fleet: used })).rejects.toMatchObject({
      code: "ENGINE_UNREACHABLE",
    });
  });
});
