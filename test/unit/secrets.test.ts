import { describe, expect, it } from "vitest";
import { printsEnvironment } from "../../src/core/containers/ps-args.ts";
import { redactText } from "../../src/core/containers/secrets.ts";

describe("printsEnvironment: the ps arguments that print each process's environment", () => {
  it.each([
    // BSD's e, alone or among other BSD flags.
    ["e", true],
    ["auxe", true],
    ["axeww", true],
    ["eww", true],
    ["aux e", true],
    ["-o pid e", true],
    // procps reads -words as BSD options once their SysV reading failed.
    ["-auxe", true],
    ["-efx", true],
    ["-ef -x", true],
    ["-eu root", true],
    // -e read as SysV is every process; option arguments are no options.
    ["-ef", false],
    ["-e", false],
    ["-A", false],
    ["aux", false],
    ["-aux", false],
    ["-eo pid,comm", false],
    ["-ef -o pid,user,etime", false],
    ["-o pid,etime", false],
    ["o pid,etime", false],
    ["opid,etime", false],
    ["--format pid,etime", false],
    ["--sort=-etime -ef", false],
    ["x 1 e", false],
  ])("%j: %s", (psArgs, expected) => {
    expect(printsEnvironment(psArgs)).toBe(expected);
  });
});

describe("redactText: NAME=value words whose names look secret", () => {
  it.each([
    [
      "sh -c x DB_PASSWORD=hunter2 API_TOKEN=abc123 PLAIN=visible",
      "sh -c x DB_PASSWORD=<redacted> API_TOKEN=<redacted> PLAIN=visible",
    ],
    ["app SECRET=two words PORT=80", "app SECRET=<redacted> PORT=80"],
    ["app --api-key=xyz --port=80", "app --api-key=<redacted> --port=80"],
    ["KEY=a=b", "KEY=<redacted>"],
    ["auth_header=x", "auth_header=<redacted>"],
    ["PATH=/bin:/usr/bin HOME=/root", "PATH=/bin:/usr/bin HOME=/root"],
    ["sleep 1000", "sleep 1000"],
    ["a == b", "a == b"],
  ])("%j → %j", (input, output) => {
    expect(redactText(input)).toBe(output);
  });
});
