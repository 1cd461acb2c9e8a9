import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, dockerIds, engines } from "./helpers.ts";
import { sshHost, sshKeyPair } from "./remote-hosts.ts";

const clientKey = sshKeyPair();
let good: Awaited<ReturnType<typeof sshHost>>;
let refusing: Awaited<ReturnType<typeof sshHost>>;
let config: string;

beforeAll(async () => {
  [good, refusing] = await Promise.all([
    sshHost({ refuse: false, clientPublicKey: clientKey.public }),
    sshHost({ refuse: true, clientPublicKey: clientKey.public }),
  ]);
  const keyFile = join(engines.tmp, "id_ed25519");
  const strangerFile = join(engines.tmp, "id_stranger");
  await writeFile(keyFile, clientKey.private, { mode: 0o600 });
  await writeFile(strangerFile, sshKeyPair().private, { mode: 0o600 });
  config = join(engines.tmp, "ssh.config.json");
  await writeFile(
    config,
    JSON.stringify({
      clusters: [
        {
          name: "over-ssh",
          host: `ssh://docklens@127.0.0.1:${good.port}`,
          ssh: { privateKey: keyFile },
        },
        {
          name: "refused",
          host: "ssh://docklens@127.0.0.1",
          port: refusing.port,
          ssh: { privateKey: keyFile },
          // Bounds a wait only: a refusal comes when it comes. 3 s was passed on a loaded CI
          // lane (ENGINE_TIMEOUT); a hang still fails the test within vitest's 30 s.
          timeoutMs: 10_000,
        },
        {
          name: "stranger",
          host: "ssh://127.0.0.1",
          port: good.port,
          ssh: { username: "docklens", privateKey: strangerFile },
          timeoutMs: 10_000,
        },
      ],
    }),
  );
});
afterAll(() => {
  good.close();
  refusing.close();
});

describe("engines over SSH", () => {
  it("lists an engine's containers through docker system dial-stdio", async () => {
    const result = await cli(["containers", "over-ssh", "--json", "--config", config]);
    expect(result.stderr).toBe("");
    const body = JSON.parse(result.stdout);
    expect(body.containers.map((c: { Id: string }) => c.Id).sort()).toEqual(
      await dockerIds(engines.adminB, "ps", "-aq", "--no-trunc"),
    );
    const clusters = JSON.parse(
      (await cli(["clusters", "--json", "--config", config])).stdout,
    ).clusters;
    expect(clusters[0]).toMatchObject({
      name: "over-ssh",
      port: good.port,
      docker: { Volumes: 1 },
    });
    expect(JSON.stringify(clusters)).not.toMatch(/id_ed25519|PRIVATE KEY/);
  });

  it("a host that refuses the exec is an unreachable engine, not a crash", async () => {
    const result = await cli(["volumes", "refused", "--config", config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^docklens: cannot reach the engine of cluster "refused" \(ssh:\/\/docklens@127\.0\.0\.1:\d+\): SSH failure \(the host refused docker system dial-stdio\)\n$/,
    );
    const clusters = JSON.parse(
      (await cli(["clusters", "--json", "--config", config])).stdout,
    ).clusters;
    expect(clusters[1].error.code).toBe("ENGINE_UNREACHABLE");
  });

  it("a key the host does not accept is an SSH failure", async () => {
    const result = await cli(["networks", "stranger", "--config", config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /cannot reach the engine of cluster "stranger" \(ssh:\/\/127\.0\.0\.1:\d+\): SSH failure \(client-authentication\)\n$/,
    );
  });
});
