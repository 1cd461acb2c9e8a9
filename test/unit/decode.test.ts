// The decoding of operation inputs (operations/decode.ts), one rule a kind of field for every
// face: a query string's text, a command's parsed options, a tool call's JSON.
import { describe, expect, it } from "vitest";
import { decode } from "../../src/operations/decode.ts";
import type { InputDecl } from "../../src/operations/input.ts";
import { routesOf } from "../../src/operations/operation.ts";
import { OPERATIONS } from "../../src/operations/table.ts";

const inputOf = (path: string): InputDecl => {
  const route = routesOf(OPERATIONS).find((route) => route.path === path);
  return route!.query!;
};
const LOGS = inputOf("/detail/:cluster/container/:containerName/logs");
const MERGED = inputOf("/logs");
const DF = inputOf("/list/df");
const PS = inputOf("/list/containers");

const NOW_SECONDS = Date.now() / 1000;

describe("decode", () => {
  it.each([
    ["nothing given is nothing decoded", LOGS, {}, {}],
    [
      "every field of the logs, as a query string gives them",
      LOGS,
      {
        tail: "all",
        until: "1763700000",
        stream: "stderr",
        timestamps: "1",
        follow: "true",
      },
      { tail: "all", until: 1763700000, stream: "stderr", timestamps: true, follow: true },
    ],
    ["a number of lines", LOGS, { tail: "20" }, { tail: 20 }],
    ["a tool's number of lines", LOGS, { tail: 20 }, { tail: 20 }],
    ["a flag alone is true", LOGS, { follow: true }, { follow: true }],
    [
      "false and 0 are false",
      LOGS,
      { follow: "false", timestamps: "0" },
      { follow: false, timestamps: false },
    ],
    ["a field not declared is ignored", LOGS, { grep: "x", other: "1" }, {}],
    [
      "each kind once, in order",
      DF,
      { type: ["volume", "image", "volume"] },
      { type: ["volume", "image"] },
    ],
    ["clusters as given", DF, { cluster: ["a", "2"] }, { cluster: ["a", "2"] }],
    [
      "filters grouped as the engine takes them",
      PS,
      { filter: ["label=a=1", "label=b", "status=running"] },
      { filter: { label: ["a=1", "b"], status: ["running"] } },
    ],
    ["a pattern as text", MERGED, { grep: "a|b" }, { grep: "a|b" }],
  ])("%s", (_, decl, raw, expected) => {
    expect(decode(decl, raw)).toEqual(expected);
  });

  it("reads a duration before now", () => {
    const { since } = decode(LOGS, { since: "10m" });
    expect(since).toBeGreaterThan(NOW_SECONDS - 601);
    expect(since).toBeLessThan(NOW_SECONDS - 599 + 60);
  });

  it.each([
    [LOGS, { tail: "-1" }, 'tail: expected a number of lines or "all", got "-1"'],
    [LOGS, { tail: "1.5" }, 'tail: expected a number of lines or "all", got "1.5"'],
    [LOGS, { tail: "" }, 'tail: expected a number of lines or "all", got ""'],
    [LOGS, { tail: -3 }, 'tail: expected a number of lines or "all", got -3'],
    [LOGS, { stream: "all" }, 'stream: expected stdout, stderr, both, got "all"'],
    [LOGS, { timestamps: "y" }, 'timestamps: expected true, false, 1 or 0, got "y"'],
    [LOGS, { follow: "TRUE" }, 'follow: expected true, false, 1 or 0, got "TRUE"'],
    [LOGS, { follow: "" }, 'follow: expected true, false, 1 or 0, got ""'],
    [LOGS, { follow: 1 }, "follow: expected true, false, 1 or 0, got 1"],
    [LOGS, { since: "yesterday" }, /^since: expected Unix seconds/],
    [LOGS, { since: 5 }, "since: expected text, got 5"],
    [MERGED, { grep: ["a"] }, 'grep: expected text, got ["a"]'],
    [
      DF,
      { type: ["images"] },
      'type: expected image, container, volume, build-cache, got "images"',
    ],
    [DF, { type: "image" }, 'type: expected a list of values, got "image"'],
    [
      DF,
      { cluster: Array.from({ length: 101 }, () => "a") },
      "cluster: at most 100 values, got 101",
    ],
    [DF, { cluster: ["a".repeat(256)] }, "cluster: a value is at most 255 characters"],
    [
      PS,
      { filter: Array.from({ length: 21 }, () => "name=a") },
      "filter: at most 20 values, got 21",
    ],
    [PS, { filter: [`name=${"a".repeat(300)}`] }, "filter: a value is at most 256 characters"],
    [PS, { filter: ["nope=1"] }, /^filter: unknown filter "nope" for containers/],
  ])("refuses %#: %s", (decl, raw, message) => {
    const error = (() => {
      try {
        decode(decl, raw);
      } catch (error) {
        return error as { code: string; param: string; message: string };
      }
      throw new Error("decoded");
    })();
    expect(error.code).toBe("INVALID_QUERY");
    // The field, for each face to name in its own word (a flag, a tool argument).
    expect(error.param).toBe(Object.keys(raw)[0]);
    expect(error.message).toMatch(message);
  });
});
