import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { cli, docker, engines } from "./helpers.ts";
import { noEngineStreamsLeft, readStream, serverForFile } from "./server-helpers.ts";

/** A container's stats and processes, and the detail of images, volumes and networks. */
const server = serverForFile({ log: false });
const get = server.get;
const cliWithConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

describe("stats", () => {
  it("gives one sample with a docker stats summary in range and the engine's body", async () => {
    const { status, json } = await get("/detail/alpha/container/web/stats");
    expect(status).toBe(200);
    const { summary, raw: body } = json;
    expect(summary.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(summary.cpuPercent).toBeLessThanOrEqual(100 * (body.cpu_stats.online_cpus || 64));
    expect(summary.memoryUsage).toBeGreaterThan(0);
    expect(summary.memoryUsage).toBeLessThanOrEqual(summary.memoryLimit);
    expect(summary.memoryPercent).toBeCloseTo((summary.memoryUsage / summary.memoryLimit) * 100, 6);
    expect(summary.pids).toBeGreaterThanOrEqual(1);
    for (const key of ["netRx", "netTx", "blockRead", "blockWrite"])
      expect(summary[key]).toBeGreaterThanOrEqual(0);
    expect(body.name).toBe("/web");
    expect(body.precpu_stats).toBeDefined();
  });

  it("passes integers beyond 2^53 through exactly, in one sample, in a stream and in the CLI's --json", async () => {
    // The engine's own text: a cgroup v1 host sends hierarchical_memory_limit = 2^63 - 4096 and the like.
    const engine = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          socketPath: engines.hostA.replace("unix://", ""),
          path: "/containers/web/stats?stream=false",
        },
        (res) => {
          let text = "";
          res
            .on("data", (chunk: Buffer) => (text += chunk.toString()))
            .on("end", () => resolve(text));
        },
      );
      req.on("error", reject).end();
    });
    const big = [...engine.matchAll(/"(\w+_limit)":(\d{16,})/g)].filter(
      ([, , digits]) => !Number.isSafeInteger(Number(digits)),
    );
    expect(big.length, "the engine sent no integer beyond 2^53 to check with").toBeGreaterThan(0);
    const one = (await get("/detail/alpha/container/web/stats")).text;
    const streamed = await new Promise<string>((resolve) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/detail/alpha/container/web/stats?stream=true",
        },
        (res) => {
          res.once("data", (chunk: Buffer) => {
            resolve(chunk.toString());
            req.destroy();
          });
        },
      );
      req.end();
    });
    const cli = (await cliWithConfig("stats", "alpha", "web", "--json")).stdout;
    for (const [, key, digits] of big) {
      for (const text of [one, streamed, cli]) expect(text).toContain(`"${key}":${digits}`);
    }
  });

  it("stream=true gives one object per engine sample and stops when the client leaves", async () => {
    const { type, items } = await readStream(
      server.port,
      "/detail/alpha/container/web/stats?stream=true",
      2,
    );
    expect(type).toBe("application/x-ndjson");
    expect(items).toHaveLength(2);
    for (const item of items) expect(Object.keys(item)).toEqual(["summary", "raw"]);
    expect(await noEngineStreamsLeft()).toBe(0);
  });
});

describe("process", () => {
  it("lists the processes of a running container, ps_args passed through", async () => {
    const { status, json } = await get("/detail/alpha/container/web/process");
    expect(status).toBe(200);
    expect(json.Titles).toContain("PID");
    expect(json.Processes.some((row: string[]) => row.at(-1)!.startsWith("sh -c"))).toBe(true);
    const custom = (await get("/detail/alpha/container/web/process?ps_args=-o%20pid,comm")).json;
    expect(custom.Titles).toEqual(["PID", "COMMAND"]);
  });

  it("is 409 for a stopped container and 400 for ps_args a shell would read", async () => {
    const stopped = await get("/detail/alpha/container/failed/process");
    expect(stopped.status).toBe(409);
    expect(stopped.json.error).toEqual({
      code: "CONTAINER_NOT_RUNNING",
      message: 'container "failed" of cluster "alpha" is not running',
    });
    expect(
      (await get("/detail/alpha/container/web/process?ps_args=-ef%3B%20reboot")).json.error.code,
    ).toBe("INVALID_QUERY");
  });
});

describe("ps_args the engine's ps cannot run", () => {
  it("is 400 INVALID_QUERY in the engine's words, as docker top says them; the CLI's top exits 2", async () => {
    for (const args of ["zzz", "-o nonexist", "-o comm"]) {
      const words = await docker(engines.hostA, "top", "web", ...args.split(" ")).then(
        (out) => `docker top succeeded: ${out}`,
        (error: { stderr: string }) =>
          error.stderr.trim().replace(/^Error response from daemon: /, ""),
      );
      const { status, json } = await get(
        `/detail/alpha/container/web/process?ps_args=${encodeURIComponent(args)}`,
      );
      expect({ args, status, code: json.error.code }).toEqual({
        args,
        status: 400,
        code: "INVALID_QUERY",
      });
      expect(json.error.message).toBe(
        `ps_args: the engine's ps cannot run ${JSON.stringify(args)}: ${words}`,
      );
    }
    const top = await cliWithConfig("top", "alpha", "web", "--ps-args", "zzz");
    expect(top).toMatchObject({ code: 2, stdout: "" });
    expect(top.stderr).toMatch(/^docklens: --ps-args: the engine's ps cannot run "zzz": ps: /);
  });

  it("is 400 INVALID_QUERY where Podman's ps fails and Podman answers an empty 200", async () => {
    const top = await cli([
      "top",
      "pod",
      "p-web",
      "--ps-args",
      "-o nonexist",
      "--config",
      engines.podmanConfigPath,
    ]);
    expect(top).toMatchObject({ code: 2, stdout: "" });
    expect(top.stderr).toMatch(/^docklens: --ps-args: the engine's ps cannot run "-o nonexist"/);
  });
});

describe("image, volume and network detail", () => {
  it("takes an image reference raw, percent-encoded, or by id", async () => {
    const id = await docker(engines.hostA, "image", "inspect", "-f", "{{.Id}}", "local/busybox:1");
    for (const name of [
      "local/busybox:1",
      "local%2Fbusybox%3A1",
      id,
      id.slice(7, 19),
      "sha256%3A" + id.slice(7),
    ]) {
      const { status, json } = await get(`/detail/alpha/image/${name}`);
      expect(status, name).toBe(200);
      expect(json.Id).toBe(id);
      expect(json.RepoTags).toEqual(["local/busybox:1"]);
    }
  });

  it("answers 404 IMAGE_NOT_FOUND and 400 INVALID_NAME", async () => {
    expect((await get("/detail/alpha/image/nope:1")).json.error).toEqual({
      code: "IMAGE_NOT_FOUND",
      message: 'image "nope:1" not found in cluster "alpha"',
    });
    for (const name of ["UPPER", "local/../x", "a%3Fb", "local//busybox", "-x"])
      expect((await get(`/detail/alpha/image/${name}`)).json.error.code, name).toBe("INVALID_NAME");
  });

  it("gives a volume normalised as the interface says, and 404 VOLUME_NOT_FOUND", async () => {
    const { json } = await get("/detail/alpha/volume/data");
    expect(json).toMatchObject({
      Name: "data",
      Driver: "local",
      Labels: { purpose: "data", empty: "" },
      Options: null,
    });
    expect(json.CreatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await get("/detail/alpha/volume/plain")).json.Labels).toEqual({});
    expect((await get("/detail/alpha/volume/nope")).json.error.code).toBe("VOLUME_NOT_FOUND");
  });

  it("gives a network by name or id, and 404 NETWORK_NOT_FOUND", async () => {
    const id = await docker(engines.hostA, "network", "inspect", "-f", "{{.Id}}", "lens-net");
    for (const name of ["lens-net", id, id.slice(0, 12)]) {
      const { json } = await get(`/detail/1/network/${name}`);
      expect(json).toMatchObject({
        Id: id,
        Name: "lens-net",
        IPAM: { Config: [{ Subnet: "192.0.2.0/24" }] },
      });
    }
    expect(
      Object.values((await get("/detail/1/network/lens-net")).json.Containers).map(
        (c: any) => c.Name,
      ),
    ).toEqual(["web"]);
    expect((await get("/detail/alpha/network/nope")).json.error.code).toBe("NETWORK_NOT_FOUND");
  });
});
