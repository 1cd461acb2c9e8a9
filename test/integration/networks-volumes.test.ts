import { describe, expect, it } from "vitest";
import { cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";

describe("docklens networks", () => {
  it("lists the engine's networks unchanged, with the spec's fields", async () => {
    const { networks } = await cliJson<{ networks: Array<Record<string, any>> }>([
      "networks",
      "alpha",
    ]);
    expect(networks.map((n) => n.Id).sort()).toEqual(
      await dockerIds(engines.hostA, "network", "ls", "-q", "--no-trunc"),
    );
    const net = networks.find((n) => n.Name === "lens-net")!;
    expect(net).toMatchObject({
      Driver: "bridge",
      Scope: "local",
      EnableIPv6: false,
      Internal: false,
      Attachable: false,
      Ingress: false,
      ConfigOnly: false,
      Labels: { team: "ops" },
    });
    expect(net.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    expect(net.IPAM.Config).toEqual([{ Subnet: "192.0.2.0/24", Gateway: "192.0.2.1" }]);
    expect(typeof net.IPAM.Driver).toBe("string");
    expect(net.ConfigFrom).toEqual({ Network: "" });
    expect(typeof net.Containers).toBe("object");
    expect(typeof net.Options).toBe("object");
  });

  it("prints a docker network ls-like table", async () => {
    const result = await cli(["networks", "7", "--config", engines.configPath]);
    expect(result.stdout.split("\n")[0]).toMatch(
      /^NETWORK ID\s+NAME\s+DRIVER\s+SCOPE\s+SUBNET\s+CREATED$/,
    );
    expect(result.stdout).toMatch(/\bhost\s+host\s+local\b/);
  });
});

describe("docklens volumes", () => {
  it("returns only Volumes, normalised as the interface says", async () => {
    const body = await cliJson<{ Volumes: Array<Record<string, any>> }>(["volumes", "alpha"]);
    expect(Object.keys(body)).toEqual(["Volumes"]);
    expect(body.Volumes.map((v) => v.Name).sort()).toEqual(
      await dockerIds(engines.hostA, "volume", "ls", "-q"),
    );
    const byName = Object.fromEntries(body.Volumes.map((v) => [v.Name, v]));
    expect(byName.data).toMatchObject({
      Driver: "local",
      Scope: "local",
      Labels: { purpose: "data", empty: "" },
      Options: null,
    });
    expect(byName.scratch!.Options).toEqual({ type: "tmpfs", device: "tmpfs", o: "size=1m" });
    expect(byName.plain!.Labels).toEqual({});
    for (const volume of body.Volumes) {
      expect(volume.CreatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(volume.Mountpoint).toBe(
        await docker(engines.hostA, "volume", "inspect", "-f", "{{.Mountpoint}}", volume.Name),
      );
    }
  });

  it("prints a docker volume ls-like table with labels", async () => {
    const result = await cli(["volumes", "alpha", "--config", engines.configPath]);
    expect(result.stdout.split("\n")[0]).toMatch(
      /^DRIVER\s+VOLUME NAME\s+SCOPE\s+CREATED\s+LABELS$/,
    );
    expect(result.stdout).toMatch(/^local\s+data\s+local\s+.+ago\s+empty,purpose=data$/m);
  });
});
