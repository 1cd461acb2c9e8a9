import { describe, expect, it } from "vitest";
import { cli, cliJson, docker, dockerIds, engines } from "./helpers.ts";

interface ListBody {
  containers: Array<Record<string, any>>;
  running: Array<Record<string, any>>;
}

const ids = (items: Array<Record<string, any>>): string[] => items.map((item) => item.Id).sort();

describe("docklens containers", () => {
  for (const [label, ref, host] of [
    ["alpha by name", "alpha", engines.hostA],
    ["alpha by id", "1", engines.hostA],
    ["bravo (TCP) by name", "bravo", engines.adminB],
    ["bravo (TCP) by id", "7", engines.adminB],
  ] as const) {
    it(`holds the ids of docker ps -a and the running ids of docker ps: ${label}`, async () => {
      const body = await cliJson<ListBody>(["containers", ref]);
      expect(Object.keys(body)).toEqual(["containers", "running"]);
      expect(ids(body.containers)).toEqual(await dockerIds(host, "ps", "-a", "-q", "--no-trunc"));
      expect(ids(body.running)).toEqual(
        await dockerIds(host, "ps", "-q", "--no-trunc", "--filter", "status=running"),
      );
      expect(body.running.every((item) => item.State === "running")).toBe(true);
    });
  }

  it("keeps running in the order of containers", async () => {
    const body = await cliJson<ListBody>(["containers", "alpha"]);
    expect(ids(body.running)).toEqual(ids(body.containers.filter((c) => c.State === "running")));
    expect(body.running.map((c) => c.Id)).toEqual(
      body.containers.filter((c) => c.State === "running").map((c) => c.Id),
    );
  });

  it("gives every item the shape of the spec, Created as ISO 8601", async () => {
    const { containers } = await cliJson<ListBody>(["containers", "alpha"]);
    for (const item of containers) {
      expect(item).toMatchObject({
        Id: expect.any(String),
        Image: expect.any(String),
        ImageID: expect.any(String),
        Command: expect.any(String),
        State: expect.any(String),
        Status: expect.any(String),
      });
      expect(item.Names.every((name: string) => name.startsWith("/"))).toBe(true);
      expect(item.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof item.Labels).toBe("object");
      expect(typeof item.HostConfig.NetworkMode).toBe("string");
      expect(Array.isArray(item.Mounts)).toBe(true);
      expect(Array.isArray(item.Ports)).toBe(true);
    }
    const created = Date.parse(containers[0]!.Created);
    expect(
      Math.abs(
        created -
          Date.parse(
            await docker(engines.hostA, "inspect", "-f", "{{.Created}}", containers[0]!.Id),
          ),
      ),
    ).toBeLessThan(1000);
  });

  it("shows the running container's network, fixed IP, published and exposed ports, and labels", async () => {
    const { containers } = await cliJson<ListBody>(["containers", "alpha"]);
    const web = containers.find((c) => c.Names.includes("/web"))!;
    expect(web.State).toBe("running");
    expect(web.Labels).toEqual({ app: "web", tier: "front" });
    // `docker port web`: "8080/tcp -> 127.0.0.1:41234", a line per published port.
    const published = (await docker(engines.hostA, "port", "web"))
      .split("\n")
      .map((line) => /^(\d+)\/(\w+) -> ([\d.]+):(\d+)$/.exec(line)!);
    expect(published).toHaveLength(2);
    expect(web.Ports).toHaveLength(3);
    expect(web.Ports).toEqual(
      expect.arrayContaining([
        { PrivatePort: 9090, Type: "tcp" },
        ...published.map(([, port, type, ip, publicPort]) => ({
          IP: ip,
          PrivatePort: Number(port),
          PublicPort: Number(publicPort),
          Type: type,
        })),
      ]),
    );
    expect(web.HostConfig.NetworkMode).toBe("lens-net");
    const endpoint = web.NetworkSettings.Networks["lens-net"];
    expect(endpoint).toMatchObject({
      IPAMConfig: { IPv4Address: "192.0.2.10" },
      IPAddress: "192.0.2.10",
      IPPrefixLen: 24,
      Gateway: "192.0.2.1",
    });
    for (const key of [
      "NetworkID",
      "EndpointID",
      "Gateway",
      "IPAddress",
      "IPv6Gateway",
      "GlobalIPv6Address",
      "MacAddress",
    ])
      expect(typeof endpoint[key]).toBe("string");
    expect(typeof endpoint.GlobalIPv6PrefixLen).toBe("number");
  });

  it("reports the exited and the created container as the engine does", async () => {
    const { containers } = await cliJson<ListBody>(["containers", "alpha"]);
    const byName = (name: string) => containers.find((c) => c.Names.includes(`/${name}`))!;
    expect(byName("failed").State).toBe("exited");
    expect(byName("failed").Status).toMatch(/^Exited \(3\)/);
    expect(byName("fresh").State).toBe("created");
  });

  it("prints a docker ps-like table for people, --running filtering it", async () => {
    const all = await cli(["containers", "alpha", "--config", engines.configPath]);
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n")[0]).toMatch(
      /^CONTAINER ID\s+IMAGE\s+COMMAND\s+CREATED\s+STATUS\s+PORTS\s+NAMES$/,
    );
    expect(all.stdout).toMatch(/web/);
    expect(all.stdout).toMatch(/failed/);
    // PORTS as docker ps prints them, in the same order every time (the engine's order varies).
    const ports = await docker(
      engines.hostA,
      "ps",
      "--filter",
      "name=^/web$",
      "--format",
      "{{.Ports}}",
    );
    for (let run = 0; run < 6; run++) {
      const table = run
        ? (await cli(["containers", "alpha", "--config", engines.configPath])).stdout
        : all.stdout;
      expect(table.split("\n").find((line) => / web$/.test(line))).toContain(`   ${ports}   `);
    }
    expect(all.stdout).toMatch(/ago/);
    expect(all.stdout).not.toMatch(/\u001b\[/);
    const running = await cli(["containers", "alpha", "--running", "--config", engines.configPath]);
    expect(running.stdout).toMatch(/web/);
    expect(running.stdout).not.toMatch(/failed|fresh/);
  });

  it("colours states only when asked to", async () => {
    const result = await cli(["containers", "alpha", "--config", engines.configPath], {
      env: { FORCE_COLOR: "1" },
    });
    expect(result.stdout).toMatch(/\u001b\[32mUp /);
  });

  it("fails with exit 1 and one line naming the cluster for an unknown cluster", async () => {
    for (const ref of ["nope", "99"]) {
      const result = await cli(["containers", ref, "--config", engines.configPath]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(new RegExp(`^docklens: cluster (id )?"?${ref}"? not found`));
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("rejects a hostile cluster name before any engine call, as a usage error (exit 2)", async () => {
    const result = await cli(["containers", "../../images/json", "--config", engines.configPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/invalid cluster name/);
  });
});
