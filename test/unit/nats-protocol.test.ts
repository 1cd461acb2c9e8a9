import { describe, expect, it } from "vitest";
import {
  decodeGrant,
  decodeHeartbeat,
  decodeRead,
  MAX_READ_BYTES,
  nodeSubjects,
} from "../../src/core/engine/nats-protocol.ts";

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
const read = { cluster: "alpha", path: "/containers/json", query: {}, id: "abc123", credit: 32 };

describe("decodeRead", () => {
  it.each([
    ["a GET", read],
    [
      "a GET with a query and stream",
      { ...read, query: { all: "true", tail: "5", type: ["image", "volume"] }, stream: true },
    ],
    ["an attach", { cluster: "alpha", attach: "web", id: "x1", credit: 0 }],
  ])("takes %s", (_, message) => {
    expect(decodeRead(bytes(message))).toEqual({ ok: true, value: message });
  });

  it.each([
    ["not JSON", "{nope", "message is not JSON text"],
    ["not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d]), "message is not JSON text"],
    ["an array", [read], "message: expected an object"],
    ["null", null, "message: expected an object"],
    ["an unknown field", { ...read, method: "POST" }, 'message: unknown field "method"'],
    [
      "an attach with a path",
      { cluster: "alpha", attach: "web", path: "/x", id: "a", credit: 1 },
      'unknown field "path"',
    ],
    ["a cluster that is no name", { ...read, cluster: "../x" }, "cluster: expected a name"],
    ["a path of the wrong type", { ...read, path: 7 }, "path: expected a string"],
    [
      "a query value object",
      { ...read, query: { filters: { a: 1 } } },
      "query.filters: expected a string or a list of strings",
    ],
    ["a stream id with a dot", { ...read, id: "a.b" }, "id: expected a stream id"],
    ["a stream id with a wildcard", { ...read, id: ">" }, "id: expected a stream id"],
    ["credit below zero", { ...read, credit: -1 }, "credit: expected at least 0"],
    ["credit too great", { ...read, credit: 1e9 }, "credit: expected at most 1024"],
    ["no id", { cluster: "alpha", path: "/x", query: {}, credit: 1 }, "id:"],
    ["no query", { cluster: "alpha", path: "/x", id: "a", credit: 1 }, "query:"],
    ["a query value of a number", { ...read, query: { tail: 5 } }, "query.tail:"],
    ["too big", { ...read, path: "x".repeat(MAX_READ_BYTES) }, `over ${MAX_READ_BYTES}`],
  ])("refuses %s", (_, message, error) => {
    const decoded = decodeRead(message instanceof Uint8Array ? message : bytes(message));
    expect(decoded.ok).toBe(false);
    expect(decoded.ok ? "" : decoded.error).toContain(error);
  });
});

describe("decodeGrant", () => {
  it.each([
    [{ credit: 16 }, true],
    [{ cancel: true }, true],
    [{}, true],
    [{ cancel: false }, false],
    [{ credit: 1.5 }, false],
    [{ credit: 4, more: 1 }, false],
    ["[]", false],
  ])("%j → %s", (message, ok) => {
    expect(decodeGrant(bytes(message)).ok).toBe(ok);
  });
});

describe("decodeHeartbeat", () => {
  const beat = { name: "far", clusters: ["alpha", "bravo"], everyMs: 5000 };
  it.each([
    [beat, true],
    [{ ...beat, stopping: true }, true],
    [{ ...beat, name: "far.away" }, false],
    [{ ...beat, name: "*" }, false],
    [{ ...beat, clusters: ["a b"] }, false],
    [{ ...beat, everyMs: 0 }, false],
    [{ ...beat, engineId: "x" }, false],
  ])("%j → %s", (message, ok) => {
    expect(decodeHeartbeat(bytes(message)).ok).toBe(ok);
  });
});

it("puts every subject of a node under its own prefix", () => {
  const subjects = nodeSubjects("far");
  expect([
    subjects.read,
    subjects.heartbeat,
    subjects.out("s1"),
    subjects.credit("s1"),
    subjects.credits,
  ]).toEqual([
    "docklens.node.far.read",
    "docklens.node.far.heartbeat",
    "docklens.node.far.out.s1",
    "docklens.node.far.credit.s1",
    "docklens.node.far.credit.*",
  ]);
});
