import { compileErrors, validate } from "@readme/openapi-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/server/routes.ts";
import { raw, serverForFile, startServer } from "./server-helpers.ts";

/** What every route shares: methods, the token, CORS, and the OpenAPI document itself. */
const server = serverForFile();
const get = server.get;
let openapi: any;
beforeAll(async () => {
  openapi = (await get("/openapi.json")).json;
});

describe("methods", () => {
  for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"]) {
    it(`${method} on a known path is 405 with Allow`, async () => {
      const response = await raw(server.port, "/list/alpha/containers", { method });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD");
      expect(response.json.error.code).toBe("METHOD_NOT_ALLOWED");
    });
  }

  it("POST on an unknown path is 404", async () => {
    expect((await raw(server.port, "/containers/create", { method: "POST" })).status).toBe(404);
  });

  it("HEAD answers the GET status and headers without a body", async () => {
    const head = await raw(server.port, "/list/alpha/containers", { method: "HEAD" });
    expect(head).toMatchObject({ status: 200, text: "" });
    expect(head.headers["content-type"]).toBe("application/json");
    expect((await raw(server.port, "/list/nope/containers", { method: "HEAD" })).status).toBe(404);
  });
});

describe("access", () => {
  it("wants the bearer token on every route but /healthz", async () => {
    const secured = await startServer({ token: "s3cret-token", log: false });
    try {
      const call = (path: string, authorization?: string) =>
        raw(secured.port, path, { headers: authorization ? { authorization } : {} });
      for (const path of ["/list/cluster", "/detail", "/openapi.json", "/list/alpha/containers"]) {
        const none = await call(path);
        expect(none.status).toBe(401);
        expect(none.json.error.code).toBe("UNAUTHORIZED");
        expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
        expect((await call(path, "Bearer wrong")).status).toBe(401);
        expect((await call(path, "Bearer s3cret-token-longer")).status).toBe(401);
        expect((await call(path, "Basic czNjcmV0LXRva2Vu")).status).toBe(401);
        expect((await call(path, "Bearer s3cret-token")).status).toBe(200);
      }
      expect((await call("/healthz")).status).toBe(200);
      // Without the token nothing else is told apart: not an unknown path, a bad name or a method.
      for (const path of [
        "/nope",
        "/list/bad%00name/containers",
        "/healthz/",
        "/list/cluster?x=%zz",
      ]) {
        const none = await call(path);
        expect(none.status).toBe(401);
        expect(none.json.error.code).toBe("UNAUTHORIZED");
      }
      expect((await raw(secured.port, "/list/cluster", { method: "DELETE" })).status).toBe(401);
      expect((await call("/nope", "Bearer s3cret-token")).status).toBe(404);
      expect((await call("/list/bad%00name/containers", "Bearer s3cret-token")).status).toBe(400);
      const document = (await call("/openapi.json", "Bearer s3cret-token")).json;
      expect(document.components.securitySchemes.bearer).toEqual({
        type: "http",
        scheme: "bearer",
      });
      expect(document.paths["/list/cluster"].get.responses["401"]).toBeDefined();
    } finally {
      await secured.close();
    }
  });

  it("CORS is off by default and on for the one origin given", async () => {
    expect((await get("/detail")).headers["access-control-allow-origin"]).toBeUndefined();
    // With a token too: browsers send the preflight without it.
    const cors = await startServer({ cors: "https://ops.example", token: "t", log: false });
    try {
      expect(
        (await raw(cors.port, "/detail", { headers: { authorization: "Bearer t" } })).headers[
          "access-control-allow-origin"
        ],
      ).toBe("https://ops.example");
      const preflight = await raw(cors.port, "/list/cluster", { method: "OPTIONS" });
      expect(preflight.status).toBe(204);
      expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD");
      expect(preflight.headers["access-control-allow-headers"]).toBe("Authorization");
      // The same on any path: a preflight tells nothing of which paths or names exist.
      for (const path of ["/nope", "/list/%zz/containers"])
        expect((await raw(cors.port, path, { method: "OPTIONS" })).status, path).toBe(204);
    } finally {
      await cors.close();
    }
  });

  it("logs one line per request: method, path, status, time", async () => {
    await get("/detail");
    await get("/nope");
    expect(server.logs).toContainEqual(expect.stringMatching(/^GET \/detail 200 \d+ms$/));
    expect(server.logs).toContainEqual(expect.stringMatching(/^GET \/nope 404 \d+ms$/));
  });
});

describe("/openapi.json and /healthz", () => {
  it("/healthz answers without asking any engine", async () => {
    expect(await get("/healthz")).toMatchObject({ status: 200, json: { status: "ok" } });
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(openapi));
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(openapi.openapi).toBe("3.1.0");
  });

  it("lists every route the app serves, GET and HEAD, with their errors", () => {
    const paths = [
      ...API_ROUTES.map((route) => route.path),
      "/healthz",
      "/openapi.json",
      "/metrics",
      "/node/:cluster/engine/:path",
    ].map((path) => path.replace(/:(\w+)/g, "{$1}"));
    expect(Object.keys(openapi.paths).sort()).toEqual(paths.sort());
    for (const path of paths) expect(Object.keys(openapi.paths[path])).toEqual(["get", "head"]);
    expect(
      openapi.paths["/detail/{cluster}/container/{containerName}"].get.responses["404"].description,
    ).toBe("CLUSTER_NOT_FOUND, CONTAINER_NOT_FOUND");
    expect(openapi.paths["/list/{cluster}/containers"].get.responses["504"].description).toBe(
      "ENGINE_TIMEOUT",
    );
  });
});
