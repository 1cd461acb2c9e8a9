import { describe, expect, it } from "vitest";
import { normalizeArgs } from "../../src/cli/argv.ts";

describe("normalizeArgs: the command line commander reads", () => {
  it.each([
    // Docker's words for docklens commands.
    ["container ls -a", "ps -a"],
    ["container ps prod", "ps prod"],
    ["container list", "ps"],
    ["-c f.yaml container ls", "-c f.yaml ps"],
    ["--config f.yaml --json image ls prod", "--config f.yaml --json images prod"],
    ["image inspect prod local/app:1", "detail image prod local/app:1"],
    ["container inspect prod web", "detail container prod web"],
    ["inspect container prod web", "detail container prod web"],
    ["network ls prod", "networks prod"],
    ["volume ls prod", "volumes prod"],
    ["system df -v", "df -v"],
    ["system events --since 1h", "events --since 1h"],
    ["container logs prod web -f", "logs prod web -f"],
    // docklens' own words, and words docker has that docklens does not, stay as they are.
    ["ps -a", "ps -a"],
    ["containers prod", "containers prod"],
    ["container", "container"],
    ["container rm web", "container rm web"],
    ["detail container prod ls", "detail container prod ls"],
    // --watch takes seconds, or nothing: a word that is not a number is the next argument.
    ["ps -w prod", "ps prod -w"],
    ["ps --watch prod staging", "ps prod staging --watch"],
    ["containers -w prod --json", "containers prod --json -w"],
    ["ps -w 5 prod", "ps -w 5 prod"],
    ["ps -w 0.5", "ps -w 0.5"],
    ["ps -w --json", "ps -w --json"],
    ["ps --watch=5 prod", "ps --watch=5 prod"],
    ["ps prod -w", "ps prod -w"],
    ["-c f.yaml ps -w prod", "-c f.yaml ps prod -w"],
    // Nothing to read.
    ["", ""],
    ["--help", "--help"],
  ])("%s", (given, read) => {
    const words = (text: string) => text.split(" ").filter(Boolean);
    expect(normalizeArgs(words(given))).toEqual(words(read));
  });
});
