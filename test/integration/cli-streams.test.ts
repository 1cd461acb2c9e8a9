import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { BIN, cli, cliJson, engines } from "./helpers.ts";

const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

/** Run a streaming command until it printed `lines` lines, then press Ctrl-C. */
async function untilInterrupted(
  args: string[],
  lines: number,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [BIN, ...args, "--config", engines.configPath], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (stdout.split("\n").filter(Boolean).length >= lines) child.kill("SIGINT");
  });
  const [code] = await once(child, "exit");
  return { code, stdout };
}

describe("docklens logs", () => {
  it("prints plain lines, stderr lines marked", async () => {
    const result = await withConfig("logs", "alpha", "web", "-n", "6");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line).toMatch(/^(out \d+|\[stderr\] err \d+)$/);
    expect(lines.some((line) => line.startsWith("[stderr] "))).toBe(true);
  });

  it("prints each line's time with --timestamps, and only one stream with --stream", async () => {
    const { stdout } = await withConfig(
      "logs",
      "alpha",
      "web",
      "-n",
      "4",
      "-t",
      "--stream",
      "stdout",
    );
    for (const line of stdout.trimEnd().split("\n"))
      expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z out \d+$/);
  });

  it("--json prints the body of the logs route", async () => {
    const body = await cliJson<{ lines: unknown[] }>(["logs", "bravo", "b-tty", "-n", "2"]);
    expect(body).toEqual({
      lines: [
        expect.objectContaining({ stream: "stdout", time: null }),
        expect.objectContaining({ stream: "stdout" }),
      ],
    });
  });

  it("--follow prints new lines until Ctrl-C, then exits 0", async () => {
    const { code, stdout } = await untilInterrupted(["logs", "alpha", "web", "-f", "-n", "0"], 2);
    expect(code).toBe(0);
    expect(stdout).toMatch(/(out|err) \d+/);
  });

  it("bad flags are usage errors, exit 2", async () => {
    for (const flags of [
      ["-n", "x"],
      ["--since", "soon"],
      ["--stream", "stdin"],
    ]) {
      const result = await withConfig("logs", "alpha", "web", ...flags);
      expect(result.code, flags.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^docklens: --(tail|since|stream): expected/);
    }
  });
});

describe("docklens stats, top and attach", () => {
  it("stats prints a docker stats-like table", async () => {
    const { code, stdout } = await withConfig("stats", "alpha", "web");
    expect(code).toBe(0);
    const [head, row] = stdout.trimEnd().split("\n");
    expect(head).toMatch(
      /^CONTAINER ID\s+NAME\s+CPU %\s+MEM USAGE \/ LIMIT\s+MEM %\s+NET I\/O\s+BLOCK I\/O\s+PIDS$/,
    );
    expect(row).toMatch(
      /^[0-9a-f]{12}\s+web\s+\d+\.\d\d%\s+[\d.]+\w?i?B \/ [\d.]+\w?i?B\s+\d+\.\d\d%/,
    );
  });

  it("stats --json prints one sample; --stream --json prints NDJSON until Ctrl-C", async () => {
    expect(Object.keys(await cliJson(["stats", "alpha", "web"]))).toEqual(["summary", "raw"]);
    const { code, stdout } = await untilInterrupted(
      ["stats", "alpha", "web", "--stream", "--json"],
      2,
    );
    expect(code).toBe(0);
    for (const line of stdout.trimEnd().split("\n"))
      expect(Object.keys(JSON.parse(line))).toEqual(["summary", "raw"]);
  });

  it("top prints the engine's process table; a stopped container is exit 1", async () => {
    const { stdout } = await withConfig("top", "alpha", "web");
    expect(stdout.split("\n")[0]).toMatch(/^UID\s+PID\s+PPID\s+C\s+STIME\s+TTY\s+TIME\s+CMD$/);
    expect(stdout).toMatch(/sh -c i=0; while true/);
    const stopped = await withConfig("top", "alpha", "failed");
    expect(stopped).toEqual({
      code: 1,
      stdout: "",
      stderr: 'docklens: container "failed" of cluster "alpha" is not running\n',
    });
  });

  it("attach prints live output until Ctrl-C, then exits 0", async () => {
    const { code, stdout } = await untilInterrupted(["attach", "alpha", "web"], 2);
    expect(code).toBe(0);
    for (const line of stdout.trimEnd().split("\n"))
      expect(line).toMatch(/^(out \d+|\[stderr\] err \d+)$/);
  });
});

describe("docklens detail image, volume and network", () => {
  it("prints each for people and as the route's body", async () => {
    expect((await withConfig("detail", "image", "alpha", "local/busybox:1")).stdout).toMatch(
      /^Tags\s+local\/busybox:1$/m,
    );
    expect((await withConfig("detail", "volume", "alpha", "scratch")).stdout).toMatch(
      /^Options\s+device=tmpfs\n\s+o=size=1m\n\s+type=tmpfs$/m,
    );
    expect((await withConfig("detail", "network", "alpha", "lens-net")).stdout).toMatch(
      /^Containers\s+web: 192\.0\.2\.10\/24$/m,
    );
    expect((await cliJson<{ Name: string }>(["detail", "network", "alpha", "lens-net"])).Name).toBe(
      "lens-net",
    );
  });

  it("names what is missing, exit 1", async () => {
    expect((await withConfig("detail", "image", "alpha", "nope:1")).stderr).toBe(
      'docklens: image "nope:1" not found in cluster "alpha"\n',
    );
    expect((await withConfig("detail", "volume", "alpha", "nope")).code).toBe(1);
    expect((await withConfig("detail", "network", "alpha", "../x")).stderr).toMatch(
      /invalid network name/,
    );
  });
});
