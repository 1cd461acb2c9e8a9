import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { cli, docker, engines, writeConfig } from "./helpers.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

/**
 * What Podman sends otherwise than Docker, beside a Docker engine: image references in their
 * full form (`docker.io/local/busybox:1`), a container without a network as `Networks: null`
 * and no `HostConfig`, and its own engine name. docklens shows and compares them as the docker
 * CLI pointed at Podman's socket does.
 */
let config: string;
let server: TestServer;
let ajv: Ajv2020;
const run = (...args: string[]) => cli([...args, "--config", config]);
const json = async <T>(...args: string[]): Promise<T> => {
  const result = await run(...args, "--json");
  expect(result.stderr, args.join(" ")).toBe("");
  return JSON.parse(result.stdout) as T;
};

beforeAll(async () => {
  config = await writeConfig("podman-and-docker.json", {
    clusters: [
      { name: "alpha", host: engines.hostA },
      { name: "pod", host: engines.hostP, timeoutMs: engines.podTimeoutMs },
    ],
  });
  server = await startServer({ log: false, fleet: await loadFleet({ configPath: config }) });
  const openapi = (await raw(server.port, "/openapi.json")).json as {
    components: { schemas: Record<string, object> };
  };
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  for (const [name, schema] of Object.entries(openapi.components.schemas))
    ajv.addSchema(schema, `#/components/schemas/${name}`);
});
afterAll(() => server.close());

function conforms(schema: string, body: unknown): void {
  const check = ajv.getSchema(`#/components/schemas/${schema}`)!;
  expect(check(body), `${schema}: ${JSON.stringify(check.errors?.slice(0, 3))}`).toBe(true);
}

/** `docker ps -a` against an engine: each container's name and IMAGE, as the docker CLI shows them. */
async function dockerImages(host: string): Promise<Record<string, string>> {
  const lines = await docker(host, "ps", "-a", "--format", "{{.Names}} {{.Image}}");
  return Object.fromEntries(lines.split("\n").map((line) => line.split(" ") as [string, string]));
}

type Item = {
  Names: string[];
  Image: string;
  HostConfig: { NetworkMode: string };
  NetworkSettings: { Networks: object };
};

describe("Podman's image references", () => {
  it("are shown as docker ps and docker images show them", async () => {
    const expected = await dockerImages(engines.hostP);
    expect(expected["p-web"]).toBe("local/busybox:1");
    const { containers } = await json<{ containers: Item[] }>("containers", "pod");
    expect(
      Object.fromEntries(containers.map((item) => [item.Names[0]!.slice(1), item.Image])),
    ).toEqual(expected);
    // One cluster named: no CLUSTER column, as docker ps has none.
    const table = (await run("ps", "pod", "-a")).stdout;
    expect(table).toMatch(/^[0-9a-f]{12}\s+local\/busybox:1\s+"sh -c/m);
    expect(table).not.toContain("docker.io/");

    const repositories = await docker(
      engines.hostP,
      "images",
      "--format",
      "{{.Repository}}:{{.Tag}}",
    );
    const { images } = await json<{ images: Array<{ RepoTags: string[] }> }>("images", "pod");
    expect(images.flatMap((image) => image.RepoTags)).toEqual(repositories.split("\n"));
    expect((await run("images", "pod")).stdout).toMatch(/^local\/busybox\s+1\s+[0-9a-f]{12}\s/m);
  });

  it("stay the engine's own words in detail bodies, as docker inspect shows them", async () => {
    const image = await json<{ RepoTags: string[] }>("detail", "image", "pod", "local/busybox:1");
    expect(JSON.stringify(image.RepoTags)).toBe(
      await docker(engines.hostP, "image", "inspect", "-f", "{{json .RepoTags}}", IMAGE_REF),
    );
    const detail = await json<{ Config: { Image: string } }>("detail", "container", "pod", "p-web");
    expect(detail.Config.Image).toBe(
      await docker(engines.hostP, "inspect", "-f", "{{.Config.Image}}", "p-web"),
    );
  });

  it("are compared with Docker's by drift", async () => {
    const { images } = await json<{
      images: Array<{ reference: string; clusters: Array<{ cluster: { name: string } }> }>;
    }>("drift");
    const busybox = images.find((image) => image.reference === IMAGE_REF);
    expect(busybox?.clusters.map((entry) => entry.cluster.name)).toEqual(["alpha", "pod"]);
    expect(images.map((image) => image.reference)).not.toContain(`docker.io/${IMAGE_REF}`);
  });
});

const IMAGE_REF = "local/busybox:1";

describe("a Podman container without a network", () => {
  it("is listed in Docker's shape, with the network mode docker inspect gives", async () => {
    const { containers } = await json<{ containers: Item[] }>("containers", "pod");
    const none = containers.find((item) => item.Names[0] === "/p-none")!;
    expect(none.NetworkSettings.Networks).toEqual({});
    expect(none.HostConfig.NetworkMode).toBe(
      await docker(engines.hostP, "inspect", "-f", "{{.HostConfig.NetworkMode}}", "p-none"),
    );
    const web = containers.find((item) => item.Names[0] === "/p-web")!;
    expect(Object.keys(web.NetworkSettings.Networks)).toEqual(["podman"]);
  });

  it("keeps the routes' bodies in the shapes of the OpenAPI document", async () => {
    const one = await raw(server.port, "/list/pod/containers");
    expect(one.status).toBe(200);
    conforms("ContainerList", one.json);
    const all = await raw(server.port, "/list/containers");
    expect(all.status).toBe(200);
    conforms("AllContainerList", all.json);
    expect(all.json.errors).toEqual([]);
  });
});

describe("the engine of a cluster", () => {
  it("is named as docker version names it", async () => {
    for (const [cluster, host] of [
      ["pod", engines.hostP],
      ["alpha", engines.hostA],
    ] as const) {
      const [name, version] = (
        await docker(
          host,
          "version",
          "-f",
          "{{(index .Server.Components 0).Name}}\n{{.Server.Version}}",
        )
      ).split("\n");
      const expected = { name: name === "Engine" ? "Docker Engine" : name, version };
      const body = await json<{ engine: object }>("detail", "cluster", cluster);
      expect(body.engine, cluster).toEqual(expected);
      conforms("ClusterDetail", body);
      expect((await run("detail", "cluster", cluster)).stdout).toMatch(
        new RegExp(`^Engine\\s+${expected.name} ${version!.replace(/[.+]/g, "\\$&")}$`, "m"),
      );
    }
    expect((await json<{ engine: { name: string } }>("detail", "cluster", "pod")).engine.name).toBe(
      "Podman Engine",
    );
  });
});
