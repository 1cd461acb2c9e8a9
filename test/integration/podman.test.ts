import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { createOpenApiDocument } from "../../src/server/openapi.ts";
import { API_ROUTES } from "../../src/server/routes.ts";
import { cli, docker, dockerIds, engines } from "./helpers.ts";
import { raw, startServer } from "./server-helpers.ts";

/**
 * A Podman engine (its Docker-compatible API) beside the Docker ones: every command and route
 * works on it, and its bodies have the shapes the OpenAPI document gives, as Docker's do. The
 * docker CLI, pointed at Podman's socket, is the oracle of what the engine holds.
 */
const withPodman = (...args: string[]) => cli([...args, "--config", engines.podmanConfigPath]);
const json = async <T>(...args: string[]): Promise<T> => {
  const result = await withPodman(...args, "--json");
  expect(result.stderr, args.join(" ")).toBe("");
  return JSON.parse(result.stdout) as T;
};

const schemas = createOpenApiDocument(API_ROUTES, { token: false }).components as {
  schemas: Record<string, object>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
for (const [name, schema] of Object.entries(schemas.schemas))
  ajv.addSchema(schema, `#/components/schemas/${name}`);
function conforms(schema: string, body: unknown): void {
  const check = ajv.getSchema(`#/components/schemas/${schema}`)!;
  expect(check(body), `${schema}: ${JSON.stringify(check.errors?.slice(0, 3))}`).toBe(true);
}

describe("a Podman engine", () => {
  it("lists its containers, networks, volumes and images as Docker's, by the same routes", async () => {
    const list = await json<{
      containers: Array<{ Id: string; State: string; Ports: unknown[]; Labels: object }>;
      running: Array<{ Id: string }>;
    }>("containers", "pod");
    conforms("ContainerList", list);
    expect(list.containers.map((c) => c.Id).sort()).toEqual(
      await dockerIds(engines.hostP, "ps", "-aq", "--no-trunc"),
    );
    expect(list.running.map((c) => c.Id).sort()).toEqual(
      await dockerIds(engines.hostP, "ps", "-q", "--no-trunc", "--filter", "status=running"),
    );
    expect(new Set(list.containers.map((c) => c.State))).toEqual(
      new Set(["running", "created", "exited"]),
    );
    conforms("NetworkList", await json("networks", "pod"));
    const volumes = await json<{ Volumes: Array<{ Name: string }> }>("volumes", "pod");
    conforms("VolumeList", volumes);
    expect(volumes.Volumes.map((v) => v.Name)).toEqual(["p-vol"]);
    const images = await json<{ images: Array<{ Id: string }> }>("images", "pod");
    conforms("ImageList", images);
    expect(images.images.map((i) => i.Id).sort()).toEqual([
      ...new Set(await dockerIds(engines.hostP, "images", "-q", "--no-trunc")),
    ]);
    const clusters = await json<{ clusters: Array<{ docker: { ServerVersion: string } }> }>(
      "clusters",
    );
    conforms("ClusterList", clusters);
    expect(clusters.clusters[0]!.docker.ServerVersion).toBe(
      await docker(engines.hostP, "version", "-f", "{{.Server.Version}}"),
    );
  });

  it("details a container, an image, a volume, a network and the cluster", async () => {
    const detail = await json<{ Id: string; State: { Status: string } }>(
      "detail",
      "container",
      "pod",
      "p-web",
    );
    conforms("ContainerDetail", detail);
    expect(detail.Id).toBe(await docker(engines.hostP, "inspect", "-f", "{{.Id}}", "p-web"));
    expect(
      (await json<{ State: { ExitCode: number } }>("detail", "container", "pod", "p-done")).State
        .ExitCode,
    ).toBe(3);
    conforms("ImageDetail", await json("detail", "image", "pod", "local/busybox:1"));
    conforms("Volume", await json("detail", "volume", "pod", "p-vol"));
    conforms("ClusterDetail", await json("detail", "cluster", "pod"));
    expect((await withPodman("detail", "container", "pod", "p-web")).stdout).toMatch(
      /^State\s+Up /m,
    );
  });

  it("reads logs, and follows them", async () => {
    const logs = await json<{ lines: Array<{ stream: string; text: string }> }>(
      "logs",
      "pod",
      "p-web",
      "-n",
      "4",
    );
    conforms("LogLines", logs);
    expect(logs.lines).toHaveLength(4);
    expect(new Set(logs.lines.map((line) => line.stream))).toEqual(new Set(["stdout", "stderr"]));
    expect(logs.lines.find((line) => line.stream === "stderr")!.text).toMatch(/^err \d+$/);
    expect((await withPodman("logs", "pod", "p-done")).stdout).toBe("bye\n");
  });

  it("gives stats with the container's id and name, also of one that does not run", async () => {
    const id = await docker(engines.hostP, "inspect", "-f", "{{.Id}}", "p-web");
    const sample = await json<{ summary: { pids: number }; raw: { id: string; name: string } }>(
      "stats",
      "pod",
      "p-web",
    );
    conforms("StatsSample", sample);
    expect(sample.raw).toMatchObject({ id, name: "/p-web" });
    expect(sample.summary.pids).toBeGreaterThanOrEqual(1);
    const idle = await json<{
      summary: { cpuPercent: number; pids: number };
      raw: { name: string };
    }>("stats", "pod", "p-fresh");
    conforms("StatsSample", idle);
    expect(idle).toMatchObject({ summary: { cpuPercent: 0, pids: 0 }, raw: { name: "/p-fresh" } });
    expect((await withPodman("stats", "pod", "p-web")).stdout.split("\n")[1]).toMatch(
      new RegExp(`^${id.slice(0, 12)}\\s+p-web\\s`),
    );
  });

  it("lists processes in Docker's columns", async () => {
    const top = await json<{ Titles: string[]; Processes: string[][] }>("top", "pod", "p-web");
    conforms("Processes", top);
    expect(top.Titles.length).toBeGreaterThan(1);
    expect(top.Processes.every((row) => row.length === top.Titles.length)).toBe(true);
    expect(top.Processes.some((row) => row.at(-1)!.startsWith("sh -c"))).toBe(true);
  });

  it("attaches to live output, and the HTTP routes answer as the CLI", async () => {
    const server = await startServer({
      log: false,
      fleet: await loadFleet({ configPath: engines.podmanConfigPath }),
    });
    try {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/detail/pod/container/p-web/attach`, {
        signal: controller.signal,
      });
      expect(response.headers.get("content-type")).toBe("application/x-ndjson");
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      expect(JSON.parse(text.split("\n")[0]!)).toMatchObject({
        stream: expect.stringMatching(/^std(out|err)$/),
        text: expect.stringMatching(/^(out|err) \d+$/),
      });
      for (const path of [
        "/list/pod/containers",
        "/list/pod/volumes",
        "/detail/cluster/pod",
        "/list/containers",
        "/list/drift",
      ]) {
        expect((await raw(server.port, path)).status, path).toBe(200);
      }
      expect((await raw(server.port, "/detail/pod/container/p-done/process")).json.error.code).toBe(
        "CONTAINER_NOT_RUNNING",
      );
    } finally {
      await server.close();
    }
  });
});
