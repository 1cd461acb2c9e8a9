import { createServer, type Server } from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createFleet } from "../../src/core/engine/fleet.ts";
import { normalizeConfig } from "../../src/core/config/config-schema.ts";
import { cliJson, dockerIds, engines } from "./helpers.ts";
import { raw, serverForFile, startServer } from "./server-helpers.ts";

const server = serverForFile();
const get = server.get;
let openapi: any;
beforeAll(async () => {
  openapi = (await get("/openapi.json")).json;
});

/** Check a body against the response schema the OpenAPI document gives its route. */
function conforms(schema: string, body: unknown): void {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  for (const [name, definition] of Object.entries(openapi.components.schemas))
    ajv.addSchema(definition as object, `#/components/schemas/${name}`);
  const check = ajv.getSchema(`#/components/schemas/${schema}`)!;
  expect(check(body), JSON.stringify(check.errors?.slice(0, 3))).toBe(true);
}

describe("routes 1–7 against real engines", () => {
  it("/list/cluster: every cluster, dead and hanging ones with their error, status 200", async () => {
    const response = await get("/list/cluster");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    conforms("ClusterList", response.json);
    const byName = Object.fromEntries(response.json.clusters.map((c: any) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(["alpha", "bravo", "dead", "hang"]);
    expect(byName.alpha.docker.Volumes).toBe(3);
    expect(byName.dead).toMatchObject({ docker: {}, error: { code: "ENGINE_UNREACHABLE" } });
    expect(byName.hang).toMatchObject({ docker: {}, error: { code: "ENGINE_TIMEOUT" } });
  });

  it("/list/:cluster/containers by name and id: the ids of docker ps -a and docker ps", async () => {
    for (const ref of ["alpha", "1"]) {
      const { status, json } = await get(`/list/${ref}/containers`);
      expect(status).toBe(200);
      conforms("ContainerList", json);
      expect(json.containers.map((c: any) => c.Id).sort()).toEqual(
        await dockerIds(engines.hostA, "ps", "-aq", "--no-trunc"),
      );
      expect(json.running.map((c: any) => c.Id).sort()).toEqual(
        await dockerIds(engines.hostA, "ps", "-q", "--no-trunc", "--filter", "status=running"),
      );
    }
  });

  it("/list/:cluster/networks and /list/:cluster/volumes, by name and id", async () => {
    for (const ref of ["bravo", "7"]) {
      const networks = await get(`/list/${ref}/networks`);
      conforms("NetworkList", networks.json);
      expect(networks.json.networks.map((n: any) => n.Id).sort()).toEqual(
        await dockerIds(engines.adminB, "network", "ls", "-q", "--no-trunc"),
      );
      const volumes = await get(`/list/${ref}/volumes`);
      conforms("VolumeList", volumes.json);
      expect(volumes.json).toEqual({
        Volumes: [expect.objectContaining({ Name: "b-vol", Labels: {}, Options: null })],
      });
    }
  });

  it("/detail: the nine detail routes", async () => {
    const { json } = await get("/detail");
    conforms("RouteIndex", json);
    expect(json.routes).toHaveLength(9);
  });

  it("/detail/cluster/:clusterid by id and name; a dead engine is 200 with an error", async () => {
    for (const ref of ["1", "alpha"]) {
      const { status, json } = await get(`/detail/cluster/${ref}`);
      expect(status).toBe(200);
      conforms("ClusterDetail", json);
      expect(json.cluster).toMatchObject({
        id: 1,
        name: "alpha",
        protocol: "unix",
        tls: false,
        port: 0,
      });
    }
    const dead = await get("/detail/cluster/dead");
    expect(dead.status).toBe(200);
    expect(dead.json).toMatchObject({ docker: {}, error: { code: "ENGINE_UNREACHABLE" } });
  });

  it("/detail/:cluster/container/:containerName by name, id and prefix; secrets hidden", async () => {
    const ids = await dockerIds(engines.hostA, "ps", "-q", "--no-trunc", "--filter", "name=^/web$");
    for (const name of ["web", ids[0]!, ids[0]!.slice(0, 10), "%2Fweb"]) {
      const { status, json } = await get(`/detail/1/container/${name}`);
      expect(status, name).toBe(200);
      conforms("ContainerDetail", json);
      expect(json.Id).toBe(ids[0]);
      expect(json.Config.Env).toContain("DB_PASSWORD=<redacted>");
    }
  });

  it("serves the same bodies as the CLI's --json", async () => {
    for (const [path, args] of [
      ["/list/alpha/volumes", ["volumes", "alpha"]],
      ["/list/7/networks", ["networks", "7"]],
      ["/detail", ["detail"]],
      ["/detail/alpha/container/failed", ["detail", "container", "alpha", "failed"]],
    ] as const) {
      expect((await get(path)).json, path).toEqual(await cliJson([...args]));
    }
    const http = (await get("/list/alpha/containers")).json;
    const cli = await cliJson<typeof http>(["containers", "alpha"]);
    // Status says "Up 3 seconds", and the engine lists a container's ports in no stable order.
    const byPort = (a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    const stable = (body: any) =>
      body.containers.map(({ Status: _, Ports, ...rest }: any) => ({
        ...rest,
        Ports: [...Ports].sort(byPort),
      }));
    expect(stable(http)).toEqual(stable(cli));
  });

  it("shows secrets when the app is told to", async () => {
    const open = await startServer({ showSecrets: true, log: false });
    try {
      expect((await raw(open.port, "/detail/alpha/container/web")).json.Config.Env).toContain(
        "DB_PASSWORD=hunter2",
      );
    } finally {
      await open.close();
    }
  });
});

describe("errors", () => {
  const cases: Array<[string, number, string, RegExp]> = [
    ["/list/nope/containers", 404, "CLUSTER_NOT_FOUND", /cluster "nope" not found/],
    ["/list/99/volumes", 404, "CLUSTER_NOT_FOUND", /cluster id 99 not found/],
    ["/detail/cluster/nope", 404, "CLUSTER_NOT_FOUND", /nope/],
    [
      "/detail/alpha/container/nope",
      404,
      "CONTAINER_NOT_FOUND",
      /container "nope" not found in cluster "alpha"/,
    ],
    ["/nope", 404, "ROUTE_NOT_FOUND", /no route GET \/nope/],
    ["/list/alpha/secrets", 404, "ROUTE_NOT_FOUND", /no route/],
    [
      "/list/dead/containers",
      502,
      "ENGINE_UNREACHABLE",
      /cannot reach the engine of cluster "dead"/,
    ],
    ["/detail/dead/container/web", 502, "ENGINE_UNREACHABLE", /connection refused/],
    [
      "/list/hang/networks",
      504,
      "ENGINE_TIMEOUT",
      new RegExp(`did not answer within ${engines.hangTimeoutMs} ms`),
    ],
  ];
  for (const [path, status, code, message] of cases) {
    it(`${path} → ${status} ${code}`, async () => {
      const response = await get(path);
      expect(response.status).toBe(status);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(response.json).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect(response.text).not.toMatch(/\n\s+at /);
    });
  }

  it("an engine that answers 5xx is 502 ENGINE_ERROR", async () => {
    const broken: Server = createServer((_, res) =>
      res.writeHead(500, { "content-type": "application/json" }).end('{"message":"boom"}'),
    );
    await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
    const port = (broken.address() as { port: number }).port;
    const app = await startServer({
      fleet: createFleet(
        normalizeConfig({ clusters: [{ name: "broken", host: "127.0.0.1", port }] }, null),
      ),
    });
    try {
      const response = await raw(app.port, "/list/broken/containers");
      expect(response.status).toBe(502);
      expect(response.json.error).toEqual({
        code: "ENGINE_ERROR",
        message: `the engine of cluster "broken" (http://127.0.0.1:${port}) answered 500: boom`,
      });
      expect((await raw(app.port, "/list/cluster")).json.clusters[0].error.code).toBe(
        "ENGINE_ERROR",
      );
    } finally {
      await app.close();
      broken.close();
    }
  });
});

describe("hostile paths never reach another engine path", () => {
  const cases: Array<[string, number, string]> = [
    ["/detail/alpha/container/..%2F..%2Fimages%2Fjson", 400, "INVALID_NAME"],
    ["/detail/alpha/container/..%2f..%2fcontainers%2fjson", 400, "INVALID_NAME"],
    ["/detail/alpha/container/%2e%2e", 400, "INVALID_NAME"],
    ["/detail/alpha/container/..", 400, "INVALID_NAME"],
    ["/detail/alpha/container/web%3Fall=1", 400, "INVALID_NAME"],
    ["/detail/alpha/container/web%23frag", 400, "INVALID_NAME"],
    ["/detail/alpha/container/web%2Fjson", 400, "INVALID_NAME"],
    ["/detail/alpha/container/%E0%A4%A", 400, "INVALID_NAME"],
    ["/detail/alpha/container/web%00", 400, "INVALID_NAME"],
    ["/list/%2e%2e/containers", 400, "INVALID_NAME"],
    ["/list/alpha%2F..%2F/containers", 400, "INVALID_NAME"],
    ["/list/../detail", 404, "ROUTE_NOT_FOUND"],
    ["/detail/alpha/container/web/../../../list/cluster", 404, "ROUTE_NOT_FOUND"],
    ["/list/alpha%2Fcontainers", 404, "ROUTE_NOT_FOUND"],
    [`/list/${"a".repeat(9000)}/containers`, 400, "INVALID_NAME"],
    [`/${"x/".repeat(4500)}`, 404, "ROUTE_NOT_FOUND"],
  ];
  for (const [path, status, code] of cases) {
    it(`${path.slice(0, 60)} → ${status} ${code}`, async () => {
      const response = await get(path);
      expect(response.status).toBe(status);
      expect(response.json.error.code).toBe(code);
    });
  }

  it("a query string on a container name is a query, not part of the name", async () => {
    const response = await get("/detail/alpha/container/web?all=1");
    expect(response.status).toBe(200);
    expect(response.json.Name).toBe("/web");
  });
});
