import { describe, expect, it } from "vitest";
import { cli, cliJson, docker, engines } from "./helpers.ts";

type Detail = Record<string, any>;

describe("docklens detail container", () => {
  it("returns the engine's inspect body at the top level", async () => {
    const detail = await cliJson<Detail>(["detail", "container", "alpha", "web"]);
    const truth = JSON.parse(await docker(engines.hostA, "inspect", "web"))[0];
    expect(detail.Id).toBe(truth.Id);
    expect(detail.Name).toBe("/web");
    expect(detail.Created).toBe(truth.Created);
    expect(detail.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    expect(detail.Path).toBe("sh");
    expect(detail.Args[0]).toBe("-c");
    expect(detail.Image).toBe(truth.Image);
    expect(detail.NetworkSettings.Networks["lens-net"].IPAddress).toBe("192.0.2.10");
    expect(detail.State).toMatchObject({
      Status: "running",
      Running: true,
      Paused: false,
      Restarting: false,
      OOMKilled: false,
      Dead: false,
      ExitCode: 0,
      Error: "",
    });
    expect(typeof detail.State.StartedAt).toBe("string");
    expect(Array.isArray(detail.Mounts)).toBe(true);
    expect(detail.Config.Labels).toEqual({ app: "web", tier: "front" });
  });

  it("reports an exited container's state and exit code", async () => {
    const detail = await cliJson<Detail>(["detail", "container", "1", "failed"]);
    expect(detail.State).toMatchObject({ Status: "exited", Running: false, ExitCode: 3 });
  });

  it("accepts the name with its leading slash, the full id and a unique id prefix", async () => {
    const id = await docker(engines.hostA, "inspect", "-f", "{{.Id}}", "web");
    for (const name of ["/web", id, id.slice(0, 12)]) {
      expect((await cliJson<Detail>(["detail", "container", "alpha", name])).Id).toBe(id);
    }
  });

  it("hides sensitive environment values unless asked", async () => {
    const hidden = await cliJson<Detail>(["detail", "container", "alpha", "web"]);
    expect(hidden.Config.Env).toEqual(
      expect.arrayContaining(["DB_PASSWORD=<redacted>", "API_TOKEN=<redacted>", "PLAIN=visible"]),
    );
    const shown = await cliJson<Detail>(["detail", "container", "alpha", "web", "--show-secrets"]);
    expect(shown.Config.Env).toEqual(
      expect.arrayContaining(["DB_PASSWORD=hunter2", "API_TOKEN=abc123"]),
    );
  });

  it("prints the container for people, secrets hidden", async () => {
    const result = await cli([
      "detail",
      "container",
      "alpha",
      "web",
      "--config",
      engines.configPath,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Name\s+web$/m);
    expect(result.stdout).toMatch(/^State\s+Up /m);
    expect(result.stdout).toMatch(/lens-net: 192\.0\.2\.10/);
    expect(result.stdout).toMatch(/DB_PASSWORD=<redacted>/);
    expect(result.stdout).not.toMatch(/hunter2/);
  });

  it("names the missing container and its cluster, exit 1", async () => {
    const result = await cli([
      "detail",
      "container",
      "bravo",
      "nope",
      "--config",
      engines.configPath,
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: 'docklens: container "nope" not found in cluster "bravo"\n',
    });
  });

  it("rejects hostile names before any engine call, as usage errors (exit 2)", async () => {
    for (const name of ["../../images/json", "web?all=1", "%2e%2e", "a/b", "..", "web#x", ""]) {
      const result = await cli([
        "detail",
        "container",
        "alpha",
        name,
        "--config",
        engines.configPath,
      ]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(/^docklens: invalid container name/);
    }
  });
});
