import { describe, expect, it } from "vitest";
import { cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";
import { serverForFile } from "./server-helpers.ts";

/** docker's filters on every list, compared with the docker CLI's own on the same engine. */
const server = serverForFile({ log: false });
const get = server.get;
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
type Item = { Id: string; Names: string[]; State: string };
const ids = (items: Array<{ Id: string }>) => items.map((item) => item.Id).sort();

describe("docker's filters", () => {
  it.each([
    ["status=exited"],
    ["health=unhealthy"],
    ["health=healthy"],
    ["label=app=web"],
    ["label=com.docker.compose.project"],
    ["name=web"],
    ["ancestor=local/app:1"],
    ["exited=3"],
    ["status=paused"],
  ])("containers --filter %s means what docker ps --filter means", async (filter) => {
    const body = await cliJson<{ containers: Item[] }>(["containers", "alpha", "--filter", filter]);
    expect(ids(body.containers)).toEqual(
      await dockerIds(engines.hostA, "ps", "-aq", "--no-trunc", "--filter", filter),
    );
    const http = await get(`/list/alpha/containers?filter=${encodeURIComponent(filter)}`);
    expect(ids(http.json.containers)).toEqual(ids(body.containers));
  });

  it("size=true lists each container's sizes as docker ps --size asks, and only then", async () => {
    const [sized, plain, across] = await Promise.all([
      get("/list/alpha/containers?size=true&filter=label%3Dapp"),
      get("/list/alpha/containers?filter=label%3Dapp"),
      get("/list/containers?cluster=alpha&size=1&filter=label%3Dapp"),
    ]);
    type Sized = Item & { SizeRw?: number; SizeRootFs?: number };
    // The engine leaves SizeRw out where it is 0 (omitempty), as it is for most fixtures.
    for (const item of [...sized.json.containers, ...across.json.containers] as Sized[])
      expect(item.SizeRootFs).toBeGreaterThan(0);
    expect(sized.json.containers.length).toBeGreaterThan(0);
    for (const item of plain.json.containers as Sized[]) expect(item.SizeRootFs).toBeUndefined();
    expect((await get("/list/alpha/containers?size=maybe")).status).toBe(400);
  });

  it("repeated filters combine as docker's do, on images, volumes and networks too", async () => {
    const both = await cliJson<{ containers: Item[] }>([
      "containers",
      "alpha",
      "--filter",
      "status=running",
      "--filter",
      "label=app",
    ]);
    expect(ids(both.containers)).toEqual(
      await dockerIds(
        engines.hostA,
        "ps",
        "-aq",
        "--no-trunc",
        "--filter",
        "status=running",
        "--filter",
        "label=app",
      ),
    );
    const images = await cliJson<{ images: Array<{ Id: string }> }>([
      "images",
      "alpha",
      "--filter",
      "reference=local/app",
    ]);
    expect(ids(images.images)).toEqual([
      ...new Set(
        await dockerIds(
          engines.hostA,
          "images",
          "-q",
          "--no-trunc",
          "--filter",
          "reference=local/app",
        ),
      ),
    ]);
    const volumes = await cliJson<{ Volumes: Array<{ Name: string }> }>([
      "volumes",
      "alpha",
      "--filter",
      "label=purpose",
    ]);
    expect(volumes.Volumes.map((v) => v.Name)).toEqual(
      (await docker(engines.hostA, "volume", "ls", "-q", "--filter", "label=purpose")).split("\n"),
    );
    const networks = await cliJson<{ networks: Array<{ Name: string }> }>([
      "networks",
      "alpha",
      "--filter",
      "name=lens",
    ]);
    expect(networks.networks.map((n) => n.Name)).toEqual(["lens-net"]);
    expect((await get("/list/alpha/volumes?filter=dangling%3Dtrue&other=ignored")).status).toBe(
      200,
    );
  });

  it("an unknown key or malformed value is a usage error / 400 INVALID_QUERY naming the allowed keys", async () => {
    const unknown = await withConfig("containers", "alpha", "--filter", "colour=red");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^docklens: --filter: unknown filter "colour" for containers; known: ancestor, before, .*status, volume\n$/,
    );
    for (const [path, message] of [
      [
        "/list/alpha/containers?filter=status%3Dbogus",
        /^filter: status: expected created, restarting/,
      ],
      [
        "/list/alpha/images?filter=nokey",
        /^filter: unknown filter "nokey" for images; known: before, dangling/,
      ],
      [
        "/list/alpha/containers?filter=before%3Dnope",
        // Docker 28's words (20.10 said "no such container nope").
        /^filter: before=nope: not a value the engine takes \(No such container: nope\)/,
      ],
      [
        "/list/alpha/networks?filter=scope%3Dgalaxy",
        /^filter: scope: expected swarm, global, local/,
      ],
    ] as const) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.json.error).toEqual({
        code: "INVALID_QUERY",
        message: expect.stringMatching(message),
      });
    }
  });
});
