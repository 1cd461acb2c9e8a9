import { describe, expect, it } from "vitest";
import { comparableReference, familiarReference } from "../../src/core/objects/references.ts";

const DIGEST = `sha256:${"ab".repeat(32)}`;

describe("familiarReference", () => {
  // What `docker ps` shows of a container created from each (Docker 20.10, and the rules of
  // github.com/distribution/reference).
  it.each([
    ["docker.io/local/busybox:1", "local/busybox:1"],
    ["local/busybox:1", "local/busybox:1"],
    ["docker.io/library/foo:1", "foo:1"],
    ["index.docker.io/library/bar", "bar"],
    ["docker.io/bar", "bar"],
    ["docker.io/library/a/b:4", "library/a/b:4"],
    ["example.com:5000/x/y:2", "example.com:5000/x/y:2"],
    ["localhost/z:3", "localhost/z:3"],
    ["localhost:5000/z", "localhost:5000/z"],
    ["[fc00::1]:5000/docker/docker:1", "[fc00::1]:5000/docker/docker:1"],
    ["Foo/bar", "Foo/bar"],
    ["test_com/foo", "test_com/foo"],
    [`docker.io/library/busybox:latest@${DIGEST}`, `busybox:latest@${DIGEST}`],
    [`docker.io/local/app@${DIGEST}`, `local/app@${DIGEST}`],
    [`docker.io/${"1a".repeat(32)}`, "1a".repeat(32)],
  ])("shows %s as %s", (reference, familiar) => {
    expect(familiarReference(reference)).toBe(familiar);
  });

  it.each([
    ["an image id", "1a".repeat(32)],
    ["an image id with its algorithm", DIGEST],
    ["Podman's untagged image", "<none>:<none>"],
    ["Podman's undigested image", "<none>@<none>"],
    ["an upper-case repository", "docker.io/docker/Docker"],
    ["a path with empty parts", "docker.io/docker///docker"],
    ["an unknown digest algorithm", `docker.io/x@md5:${"ab".repeat(16)}`],
    ["a short sha256 digest", `docker.io/x@sha256:${"ab".repeat(16)}`],
    ["a URL", "https://github.com/docker/docker"],
    ["an empty string", ""],
    ["a name over 255 characters", `docker.io/${"a".repeat(250)}/b`],
  ])("gives back %s as it is", (_, reference) => {
    expect(familiarReference(reference)).toBe(reference);
  });

  it("answers the same when asked again, past the thousand references it remembers", () => {
    const references = Array.from({ length: 1500 }, (_, i) => `docker.io/library/app${i}:1`);
    for (const round of [1, 2])
      expect(references.map(familiarReference), `round ${round}`).toEqual(
        references.map((_, i) => `app${i}:1`),
      );
  });
});

describe("comparableReference", () => {
  it.each([
    ["busybox", "busybox:latest"],
    ["busybox:latest", "busybox:latest"],
    ["docker.io/library/busybox", "busybox:latest"],
    ["index.docker.io/library/busybox:latest", "busybox:latest"],
    ["docker.io/local/busybox:1", "local/busybox:1"],
    ["quay.io/org/app", "quay.io/org/app:latest"],
    [`busybox@${DIGEST}`, `busybox@${DIGEST}`],
    [`docker.io/library/busybox:1@${DIGEST}`, `busybox:1@${DIGEST}`],
  ])("reads %s as %s", (reference, comparable) => {
    expect(comparableReference(reference)).toBe(comparable);
  });

  it("reads nothing of what docker could not read", () => {
    expect(comparableReference("1a".repeat(32))).toBeUndefined();
    expect(comparableReference("Docker/Docker")).toBeUndefined();
  });
});
