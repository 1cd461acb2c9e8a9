import { describe, expect, it } from "vitest";
import { cli, containerForFile, docker, engines } from "./helpers.ts";
import { serverForFile } from "./server-helpers.ts";

/**
 * Secrets stay hidden in a container's processes as in its detail: web's environment holds
 * DB_PASSWORD=hunter2 and API_TOKEN=abc123 (test/setup/engine-fixtures.ts).
 */
const hidden = serverForFile({ log: false });
const shown = serverForFile({ log: false, showSecrets: true });
const top = (...args: string[]) => cli(["top", "alpha", ...args, "--config", engines.configPath]);

/** A container of this file whose command line holds a secret-looking word. */
const ARGV = `lens-argv-${process.pid}`;
containerForFile(engines.hostA, [
  "--name",
  ARGV,
  "local/busybox:1",
  "sh",
  "-c",
  "sleep 600; true",
  "x",
  "API_TOKEN=argv-secret",
]);

describe("ps options that print the environment", () => {
  it.each([["auxe"], ["e"], ["axeww"], ["eww"], ["-auxe"], ["-ef -x"]])(
    "ps_args=%s is 400 INVALID_QUERY saying why; docker top prints the secret",
    async (psArgs) => {
      // The habit is docker's: its top prints the environment (eww shows only ps's own terminal).
      if (psArgs === "auxe" || psArgs === "axeww")
        expect(await docker(engines.hostA, "top", "web", ...psArgs.split(" "))).toMatch(/hunter2/);
      const { status, json, text } = await hidden.get(
        `/detail/alpha/container/web/process?ps_args=${encodeURIComponent(psArgs)}`,
      );
      expect(text).not.toMatch(/hunter2|abc123/);
      expect(status).toBe(400);
      expect(json.error.code).toBe("INVALID_QUERY");
      expect(json.error.message).toMatch(/^ps_args: .* would print each process's environment/);
    },
  );

  it("docklens top --ps-args auxe exits 2 naming the flag; --show-secrets prints the environment", async () => {
    const refused = await top("web", "--ps-args", "auxe");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(
      /^docklens: --ps-args: "auxe" would print each process's environment/,
    );
    const allowed = await top("web", "--ps-args", "auxe", "--show-secrets");
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/DB_PASSWORD=hunter2/);
  });

  it("a serve that shows secrets answers ps_args=auxe with the environment", async () => {
    const { status, text } = await shown.get("/detail/alpha/container/web/process?ps_args=auxe");
    expect(status).toBe(200);
    expect(text).toMatch(/DB_PASSWORD=hunter2/);
  });
});

describe("NAME=value words of the output whose names look secret", () => {
  it("read <redacted> in the route and in top; the rest of the line stays", async () => {
    const { status, json } = await hidden.get(`/detail/alpha/container/${ARGV}/process`);
    expect(status).toBe(200);
    const line = (json.Processes as string[][]).map((row) => row.at(-1)).join("\n");
    expect(line).toMatch(/sh -c sleep 600; true x API_TOKEN=<redacted>$/m);
    expect(line).not.toMatch(/argv-secret/);
    const table = await top(ARGV);
    expect(table.stdout).toMatch(/API_TOKEN=<redacted>/);
    expect(table.stdout).not.toMatch(/argv-secret/);
    expect((await top(ARGV, "--show-secrets")).stdout).toMatch(/API_TOKEN=argv-secret/);
  });
});
