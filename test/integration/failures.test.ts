import { describe, expect, it } from "vitest";
import { cli, engines } from "./helpers.ts";

const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

describe("dead and hanging engines", () => {
  it("a dead engine is exit 1 with one line saying it cannot be reached", async () => {
    for (const args of [
      ["containers", "dead"],
      ["networks", "dead"],
      ["volumes", "3"],
      ["detail", "container", "dead", "web"],
    ]) {
      const result = await withConfig(...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^docklens: cannot reach the engine of cluster "dead" \(http:\/\/127\.0\.0\.1:\d+\): connection refused\n$/,
      );
    }
  });

  it("a hanging engine is exit 1 once its time limit has passed", async () => {
    const result = await withConfig("containers", "hang", "--json");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `docklens: the engine of cluster "hang" (http://127.0.0.1:${/:(\d+)\)/.exec(result.stderr)?.[1]}) did not answer within ${engines.hangTimeoutMs} ms\n`,
    );
  });

  it("a socket that does not exist is unreachable, not a crash", async () => {
    const result = await cli(["containers", "local"], {
      env: { DOCKER_HOST: `unix://${engines.tmp}/none.sock` },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /cannot reach the engine of cluster "local" \(unix:\/\/.*none\.sock\): no such socket/,
    );
  });
});

describe("usage", () => {
  it("prints help with examples and the version", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples:/);
    for (const command of [
      "clusters",
      "containers",
      "networks",
      "volumes",
      "detail",
      "logs",
      "stats",
      "top",
      "attach",
      "serve",
    ])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    const version = await cli(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });

  it("usage errors exit 2 with a message on stderr only", async () => {
    // A leading cluster may be left out (with one cluster, it is that one): more may not.
    for (const args of [
      ["top"],
      ["nonsense"],
      ["containers", "a", "--bogus"],
      ["detail", "container"],
      ["detail", "image-of"],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^docklens: /);
    }
  });
});
