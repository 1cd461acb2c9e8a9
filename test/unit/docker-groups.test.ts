import { describe, expect, it } from "vitest";
import { groupHelp, normalizeArgs } from "../../src/cli/argv.ts";

describe("docker's command groups alone print their help", () => {
  it.each([
    [["container"], /^Usage: docklens container COMMAND\n[\s\S]*^ {2}ls +docklens ps$/m],
    [
      ["image", "--help"],
      /^Usage: docklens image COMMAND\n[\s\S]*^ {2}inspect +docklens detail image$/m,
    ],
    [["-c", "f.json", "volume"], /^Usage: docklens volume COMMAND/],
    [["system", "-h"], /^ {2}df +docklens df$/m],
  ])("%j", (args, help) => {
    expect(groupHelp(args)).toMatch(help);
  });

  it.each([[["container", "ls"]], [["inspect"]], [["ps"]], [["image", "nope"]], [[]]])(
    "%j is no group alone",
    (args) => {
      expect(groupHelp(args)).toBeUndefined();
    },
  );
});

describe("inspect is docker inspect, but inspect <kind> is detail <kind>", () => {
  it.each([
    ["inspect alpha web", "inspect alpha web"],
    ["inspect container alpha web", "detail container alpha web"],
    ["inspect network alpha lens-net", "detail network alpha lens-net"],
    ["inspect cluster alpha", "detail cluster alpha"],
  ])("%s → %s", (given, read) => {
    expect(normalizeArgs(given.split(" ")).join(" ")).toBe(read);
  });
});
