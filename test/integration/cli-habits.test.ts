import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { BIN, cli, dockerIds, engines } from "./helpers.ts";

/** The CLI keeps docker's habits: which containers ps lists, where options go, what Ctrl-C does. */
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
/** `docklens ps alpha -q --no-trunc ...` as a sorted list of ids. */
const psIds = async (...args: string[]) =>
  (await withConfig("ps", "alpha", "-q", "--no-trunc", ...args)).stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^alpha\//, ""))
    .sort();

describe("ps lists what docker ps lists", () => {
  it.each([
    [[]],
    [["-f", "status=exited"]],
    [["-f", "status=paused"]],
    [["-f", "status=created"]],
    [["-f", "status=exited", "-f", "status=created"]],
    [["-f", "name=failed"]],
    [["-f", "name=frozen"]],
  ])("ps %j", async (filters) => {
    const expected = await dockerIds(engines.hostA, "ps", "-q", "--no-trunc", ...filters);
    expect(await psIds(...filters)).toEqual(expected);
  });

  it("with a status filter, the table lists the stopped containers it matches", async () => {
    const result = await withConfig("ps", "alpha", "-f", "status=exited");
    expect(result.stdout).toMatch(/^alpha\s.*\sfailed$/m);
  });
});

describe("options go before or after the command", () => {
  it.each([
    [["--config", "CONFIG", "clusters"], /^ID\s+CLUSTER/],
    [["-c", "CONFIG", "containers", "alpha"], /^CONTAINER ID\s/],
    [["--json", "-c", "CONFIG", "ps", "alpha"], /^\{/],
    [["-c", "CONFIG", "detail", "--json", "cluster", "alpha"], /^\{/],
  ])("docklens %j", async (args, output) => {
    const result = await cli(args.map((arg) => (arg === "CONFIG" ? engines.configPath : arg)));
    expect(result).toEqual({ code: 0, stdout: expect.stringMatching(output), stderr: "" });
  });
});
