import { describe, expect, it } from "vitest";
import type { ClusterRecord } from "../../src/core/clusters/clusters.ts";
import { cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";

type Cluster = ClusterRecord & { docker: Record<string, any> };

describe("docklens clusters", () => {
  it("lists every cluster with the record fields, engine info and volume count", async () => {
    const { clusters } = await cliJson<{ clusters: Cluster[] }>(["clusters"]);
    expect(clusters.map((c) => [c.id, c.name])).toEqual([
      [1, "alpha"],
      [7, "bravo"],
      [3, "dead"],
      [4, "hang"],
    ]);
    for (const cluster of clusters) {
      expect(Object.keys(cluster).slice(0, 7)).toEqual([
        "id",
        "name",
        "fullname",
        "icon",
        "host",
        "port",
        "docker",
      ]);
    }
    const [alpha, bravo] = clusters;
    expect(alpha).toMatchObject({
      icon: "🅰",
      fullname: "🅰 alpha",
      host: engines.hostA.replace("unix://", ""),
      port: 0,
    });
    expect(bravo).toMatchObject({ icon: "🐳", fullname: "🐳 bravo", host: "127.0.0.1" });
    expect(alpha!.error).toBeUndefined();
    expect(alpha!.docker.ID).toBe(await docker(engines.hostA, "info", "-f", "{{.ID}}"));
    expect(alpha!.docker.Containers).toBe((await dockerIds(engines.hostA, "ps", "-aq")).length);
    expect(alpha!.docker.Volumes).toBe(
      (await dockerIds(engines.hostA, "volume", "ls", "-q")).length,
    );
    expect(bravo!.docker.Volumes).toBe(
      (await dockerIds(engines.adminB, "volume", "ls", "-q")).length,
    );
  });

  it("gives an unreachable and a hanging engine docker: {} and an error, without failing the list", async () => {
    const { clusters } = await cliJson<{ clusters: Cluster[] }>(["clusters"]);
    const dead = clusters.find((c) => c.name === "dead")!;
    const hang = clusters.find((c) => c.name === "hang")!;
    expect(dead.docker).toEqual({});
    expect(dead.error).toEqual({
      code: "ENGINE_UNREACHABLE",
      message: expect.stringMatching(
        /cannot reach the engine of cluster "dead".*connection refused/,
      ),
    });
    expect(hang.docker).toEqual({});
    expect(hang.error).toEqual({
      code: "ENGINE_TIMEOUT",
      message: expect.stringMatching(`did not answer within ${engines.hangTimeoutMs} ms`),
    });
  });

  it("prints a table with each engine's version and state", async () => {
    const result = await cli(["clusters", "--config", engines.configPath]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(
      /^ID\s+CLUSTER\s+ENDPOINT\s+STATE\s+ENGINE\s+CONTAINERS\s+IMAGES\s+VOLUMES\s+UNHEALTHY$/,
    );
    const version = await docker(engines.hostA, "version", "-f", "{{.Server.Version}}");
    const [all, running] = await Promise.all([
      dockerIds(engines.hostA, "ps", "-aq"),
      dockerIds(engines.hostA, "ps", "-q", "--filter", "status=running"),
    ]);
    expect(lines.find((line) => line.includes("alpha"))).toMatch(
      new RegExp(
        `up\\s+${version.replace(/[.+]/g, "\\$&")}\\s+${all.length} \\(${running.length} running\\)`,
      ),
    );
    expect(lines.find((line) => line.includes("dead"))).toMatch(/ENGINE_UNREACHABLE/);
    expect(lines.find((line) => line.includes("hang"))).toMatch(/ENGINE_TIMEOUT/);
    // Why goes to stderr, as every command across clusters says it.
    expect(result.stderr).toMatch(/^docklens: dead: cannot reach/m);
  });
});

describe("docklens detail cluster", () => {
  it("returns the cluster under cluster and the engine under docker, by name and by id", async () => {
    const byName = await cliJson<{ cluster: Record<string, unknown>; docker: Record<string, any> }>(
      ["detail", "cluster", "bravo"],
    );
    const byId = await cliJson<typeof byName>(["detail", "cluster", "7"]);
    expect(Object.keys(byName)).toEqual(["cluster", "docker", "engine"]);
    expect(byName.cluster).toEqual({
      id: 7,
      name: "bravo",
      fullname: "🐳 bravo",
      icon: "🐳",
      host: "127.0.0.1",
      port: byName.cluster.port,
      protocol: "http",
      tls: false,
      source: "config",
    });
    expect(byName.docker.ID).toBe(await docker(engines.adminB, "info", "-f", "{{.ID}}"));
    expect(byName.docker.Volumes).toBe(1);
    expect(byId.cluster).toEqual(byName.cluster);
    expect(byId.docker.ID).toBe(byName.docker.ID);
    expect((byName as unknown as { engine: object }).engine).toEqual({
      name: "Docker Engine",
      version: await docker(engines.adminB, "version", "-f", "{{.Server.Version}}"),
    });
  });

  it("answers a dead engine's cluster with an error beside docker: {}, and exits 1 as every failing command does", async () => {
    const result = await cli([
      "detail",
      "cluster",
      "dead",
      "--json",
      "--config",
      engines.configPath,
    ]);
    const body = JSON.parse(result.stdout) as {
      cluster: { name: string };
      docker: object;
      error: { code: string; message: string };
    };
    expect(body.cluster.name).toBe("dead");
    expect(body.docker).toEqual({});
    expect(body.error.code).toBe("ENGINE_UNREACHABLE");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`docklens: ${body.error.message}\n`);
    const table = await cli(["detail", "cluster", "dead", "--config", engines.configPath]);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^State\s+ENGINE_UNREACHABLE$/m);
    expect(table.stderr).toMatch(
      /^docklens: cannot reach the engine of cluster "dead" \(http:\/\/127\.0\.0\.1:\d+\): connection refused\n$/,
    );
  });

  it("prints the cluster and its engine for people", async () => {
    const result = await cli(["detail", "cluster", "alpha", "--config", engines.configPath]);
    expect(result.stdout).toMatch(/^Cluster\s+🅰 alpha \(id 1\)$/m);
    expect(result.stdout).toMatch(/^State\s+up$/m);
    expect(result.stdout).toMatch(/^Volumes\s+3$/m);
  });

  it("fails with exit 1 for an unknown cluster", async () => {
    const result = await cli(["detail", "cluster", "42", "--config", engines.configPath]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(
      /^docklens: cluster id 42 not found \(known: 1 alpha, 7 bravo, 3 dead, 4 hang\)\n$/,
    );
  });
});

describe("docklens detail", () => {
  it("lists exactly the nine detail routes", async () => {
    const { routes } = await cliJson<{
      routes: Array<{ path: string; methods: string[]; params: string[] }>;
    }>(["detail"]);
    expect(routes).toHaveLength(9);
    expect(routes[0]).toEqual({
      path: "/detail/cluster/:clusterid",
      methods: ["GET"],
      params: ["clusterid"],
    });
    expect(routes[6]).toEqual({
      path: "/detail/:cluster/image/:imageName",
      methods: ["GET"],
      params: ["cluster", "imageName"],
    });
    expect(routes.every((route) => route.methods.join() === "GET")).toBe(true);
  });
});
