import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { BIN, cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";
import { serverForFile } from "./server-helpers.ts";

/** Every cluster at once: ps, images, drift, docker's filters, compose projects, watch. */
const server = serverForFile({ log: false });
const get = server.get;
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
type Item = { Id: string; Names: string[]; State: string; cluster: { id: number; name: string } };
type Body = {
  containers: Item[];
  running: Item[];
  errors: Array<{ cluster: { id: number; name: string }; error: { code: string } }>;
};
const ids = (items: Array<{ Id: string }>) => items.map((item) => item.Id).sort();

describe("docklens ps and /list/containers", () => {
  it("lists every cluster's containers with its cluster, in cluster id order, and the clusters that failed", async () => {
    const body = await cliJson<Body>(["ps"]);
    const [a, b] = await Promise.all([
      dockerIds(engines.hostA, "ps", "-aq", "--no-trunc"),
      dockerIds(engines.adminB, "ps", "-aq", "--no-trunc"),
    ]);
    expect(ids(body.containers)).toEqual([...a, ...b].sort());
    const running = await Promise.all(
      [engines.hostA, engines.adminB].map((host) =>
        dockerIds(host, "ps", "-q", "--no-trunc", "--filter", "status=running"),
      ),
    );
    expect(ids(body.running)).toEqual(running.flat().sort());
    expect(body.containers.map((item) => item.cluster.id)).toEqual(
      body.containers.map((item) => item.cluster.id).sort((x, y) => x - y),
    );
    expect(new Set(body.containers.map((item) => item.cluster.name))).toEqual(
      new Set(["alpha", "bravo"]),
    );
    expect(body.errors.map(({ cluster, error }) => [cluster.name, error.code])).toEqual([
      ["dead", "ENGINE_UNREACHABLE"],
      ["hang", "ENGINE_TIMEOUT"],
    ]);
    expect(
      (await get("/list/containers")).json.containers.map((item: Item) => item.Id).sort(),
    ).toEqual(ids(body.containers));
  });

  it("prints a table with a CLUSTER column, newest first as docker ps; a failed cluster is a line on stderr", async () => {
    const result = await withConfig("ps");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(
      /^CLUSTER\s+CONTAINER ID\s+IMAGE\s+COMMAND\s+CREATED\s+STATUS\s+PORTS\s+NAMES\s+PROJECT$/,
    );
    const rows = lines
      .slice(1)
      .map((line) => [line.split(/\s+/)[0]!, line.match(/(\S+)(?:\s+shop)?$/)![1]!]);
    // Each engine's containers in docker ps's order (newest first), the clusters' merged by time.
    for (const [cluster, host] of [
      ["alpha", engines.hostA],
      ["bravo", engines.hostB],
    ] as const)
      expect(rows.filter(([name]) => name === cluster).map(([, container]) => container)).toEqual(
        (await docker(host, "ps", "--format", "{{.Names}}")).split("\n"),
      );
    expect(lines.find((line) => / shop-web\s+shop$/.test(line))).toMatch(/^alpha /);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^docklens: dead: cannot reach/),
      expect.stringMatching(/^docklens: hang: .* did not answer within/),
    ]);
  });

  it("names clusters, -q prints ids (cluster/id of several), and fails only when every cluster failed", async () => {
    const web = await docker(engines.hostA, "ps", "-q", "--filter", "name=^/web$");
    expect(await withConfig("ps", "alpha", "--filter", "name=^web$", "-q")).toEqual({
      code: 0,
      stdout: `${web}\n`,
      stderr: "",
    });
    expect((await withConfig("ps", "alpha", "bravo", "--filter", "name=^web$", "-q")).stdout).toBe(
      `alpha/${web}\n`,
    );
    const both = await withConfig("ps", "dead", "hang");
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/no cluster answered \(2 failed\)\n$/);
    // One cluster by name and by id is one cluster asked: it failed, so the command did.
    expect((await withConfig("ps", "dead", "3")).code).toBe(1);
    expect((await withConfig("ps", "nope")).code).toBe(1);
    expect((await get("/list/containers?cluster=nope")).json.error.code).toBe("CLUSTER_NOT_FOUND");
    const narrowed = (await get("/list/containers?cluster=7&cluster=alpha")).json as Body;
    expect(new Set(narrowed.containers.map((item) => item.cluster.name))).toEqual(
      new Set(["alpha", "bravo"]),
    );
    expect(narrowed.errors).toEqual([]);
  });

  it("--format fills docker-style templates, --no-trunc keeps ids whole", async () => {
    const result = await withConfig(
      "ps",
      "bravo",
      "--format",
      "{{.Cluster}}:{{.Names}}:{{.State}}",
    );
    expect(result.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "bravo:b-one:running",
      "bravo:b-tty:running",
      "bravo:shop-db:running",
    ]);
    const full = await withConfig("ps", "bravo", "-q", "--no-trunc");
    expect(
      full.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("/").at(-1))
        .sort(),
    ).toEqual(await dockerIds(engines.adminB, "ps", "-q", "--no-trunc"));
  });

  it("--group shows each compose project with its services, running/total and the clusters it spans", async () => {
    const result = await withConfig("ps", "-a", "--group");
    expect(result.stdout).toMatch(
      /^PROJECT\s+SERVICES\s+RUNNING\s+CLUSTERS\nshop\s+db,web\s+2\/2\s+alpha,bravo\n$/,
    );
    expect((await withConfig("ps", "--group", "--json")).code).toBe(2);
  });

  it("--watch ends at once, with its exit code, on an error waiting cannot mend", async () => {
    const result = await withConfig("ps", "nope", "--watch", "1");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^docklens: cluster "nope" not found/);
    expect((await withConfig("containers", "alpha", "--filter", "bogus=1", "--watch=1")).code).toBe(
      2,
    );
  });

  it("--watch redraws until Ctrl-C: with --json, one body a line", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "ps", "alpha", "--watch", "0.5", "--json", "--config", engines.configPath],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    // Two bodies drawn (however slow the machine), then Ctrl-C.
    for (let i = 0; i < 200 && stdout.split("\n").length < 3; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const bodies = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Body);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies)
      expect(ids(body.containers)).toEqual(
        await dockerIds(engines.hostA, "ps", "-aq", "--no-trunc"),
      );
  });
});

describe("images", () => {
  it("/list/:cluster/images: the engine's items, Created in ISO 8601, and the containers using each", async () => {
    const { json } = await get("/list/alpha/images");
    // docker images -q gives an image once per tag.
    expect(ids(json.images)).toEqual([
      ...new Set(await dockerIds(engines.hostA, "images", "-q", "--no-trunc")),
    ]);
    // The image of every container, as the engine resolved it.
    const used = (
      await docker(
        engines.hostA,
        "inspect",
        "-f",
        "{{.Image}}",
        ...(await dockerIds(engines.hostA, "ps", "-aq")),
      )
    ).split("\n");
    for (const image of json.images) {
      expect(image.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(image.Containers, image.RepoTags?.join()).toBe(
        used.filter((id) => id === image.Id).length,
      );
    }
  });

  it("prints docker images's columns, and a CLUSTER column across clusters", async () => {
    const one = await withConfig("images", "alpha");
    expect(one.stdout.split("\n")[0]).toMatch(
      /^REPOSITORY\s+TAG\s+IMAGE ID\s+CREATED\s+SIZE\s+CONTAINERS$/,
    );
    expect(one.stdout).toMatch(/^local\/app\s+1\s+[0-9a-f]{12}\s+.+ ago\s+\S+\s+1$/m);
    const all = await withConfig("images");
    expect(all.stdout.split("\n")[0]).toMatch(/^CLUSTER\s+REPOSITORY\s+TAG/);
    expect(all.stdout).toMatch(/^bravo\s+local\/app\s+1/m);
    expect(all.stderr.trim().split("\n")).toHaveLength(2);
    const body = (await get("/list/images?cluster=bravo")).json;
    expect(ids(body.images)).toEqual([
      ...new Set(await dockerIds(engines.adminB, "images", "-q", "--no-trunc")),
    ]);
    expect(
      body.images.every((image: { cluster: { name: string } }) => image.cluster.name === "bravo"),
    ).toBe(true);
  });
});

describe("drift", () => {
  it("flags a reference that means different images on different clusters, and shows engine versions", async () => {
    const body = (await get("/list/drift")).json;
    const imageOf = (host: string, ref: string) =>
      docker(host, "image", "inspect", "-f", "{{.Id}}", ref);
    const app = body.images.find(
      (image: { reference: string }) => image.reference === "local/app:1",
    );
    expect(app).toEqual({
      reference: "local/app:1",
      clusters: [
        {
          cluster: { id: 1, name: "alpha" },
          imageIds: [await imageOf(engines.hostA, "local/app:1")],
        },
        {
          cluster: { id: 7, name: "bravo" },
          imageIds: [await imageOf(engines.adminB, "local/app:1")],
        },
      ],
      drift: true,
    });
    expect(
      body.images.find((image: { reference: string }) => image.reference === "local/same:1").drift,
    ).toBe(false);
    // Each engine's own: A is Docker 28, B 20.10.
    const version = (host: string) => docker(host, "version", "-f", "{{.Server.Version}}");
    expect(body.engines).toEqual([
      { cluster: { id: 1, name: "alpha" }, version: await version(engines.hostA) },
      { cluster: { id: 7, name: "bravo" }, version: await version(engines.adminB) },
    ]);
    expect(body.errors.map((error: { cluster: { name: string } }) => error.cluster.name)).toEqual([
      "dead",
      "hang",
    ]);
    const table = await withConfig("drift");
    expect(table.stdout).toMatch(/^local\/app:1\s+alpha\s+[0-9a-f]{12}\s+drift$/m);
    expect(table.stdout).toMatch(/^local\/same:1\s+alpha\s+[0-9a-f]{12}\s+same$/m);
    expect(await cliJson(["drift"])).toEqual(body);
  });
});

describe("clusters", () => {
  it("counts each cluster's unhealthy containers", async () => {
    const result = await withConfig("clusters");
    expect(result.stdout.split("\n")[0]).toMatch(/VOLUMES\s+UNHEALTHY$/);
    const unhealthy = (await dockerIds(engines.hostA, "ps", "-q", "--filter", "health=unhealthy"))
      .length;
    expect(result.stdout.split("\n").find((line) => line.includes("alpha"))).toMatch(
      new RegExp(`\\s${unhealthy}$`),
    );
  });
});
