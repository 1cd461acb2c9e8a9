import { beforeAll, describe, expect, it } from "vitest";
import { alphaAndBravo, cli, writeConfig } from "./helpers.ts";

/**
 * A command that succeeds says nothing on stderr, on every Node version the suite runs on: Node
 * 24 warned there about url.parse (DEP0169) in every command on a TCP engine. Both engines, a
 * unix socket and TCP, each command with and without --json.
 */
let config: string;
beforeAll(async () => {
  config = await writeConfig("quiet.json", { clusters: alphaAndBravo() });
});

const COMMANDS = [
  ["clusters"],
  ["containers", "CLUSTER"],
  ["networks", "CLUSTER"],
  ["volumes", "CLUSTER"],
  ["detail"],
  ["detail", "cluster", "CLUSTER"],
  ["detail", "container", "CLUSTER", "CONTAINER"],
  ["detail", "image", "CLUSTER", "local/busybox:1"],
  ["detail", "network", "CLUSTER", "none"],
  ["logs", "CLUSTER", "CONTAINER", "-n", "2"],
  ["stats", "CLUSTER", "CONTAINER"],
  ["top", "CLUSTER", "CONTAINER"],
];

describe(`on Node ${process.versions.node}, a command that succeeds prints nothing on stderr`, () => {
  for (const [cluster, container] of [
    ["alpha", "web"],
    ["bravo", "b-tty"],
  ] as const) {
    it.each(
      COMMANDS.map((command) =>
        command.map((arg) => arg.replace("CLUSTER", cluster).replace("CONTAINER", container)),
      ),
    )(`${cluster}: %s`, async (...args) => {
      for (const json of [[], ["--json"]]) {
        const result = await cli([...args, ...json, "--config", config]);
        expect(result.stderr, [...args, ...json].join(" ")).toBe("");
        expect(result.code).toBe(0);
        expect(result.stdout).not.toBe("");
      }
    });
  }
});
