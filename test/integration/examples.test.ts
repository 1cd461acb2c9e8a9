import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { docsPages } from "../support/docs-pages.ts";
import { BIN, cli, docker, engines } from "./helpers.ts";

const exec = promisify(execFile);

describe("examples/jq.sh", () => {
  it("runs to the end against a real engine, with no server running", async () => {
    // `docklens` on the PATH, as the README's set-up puts it there, on the Node running the tests.
    const bin = join(engines.tmp, "jq-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "docklens"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(bin, "docklens"), 0o755);
    const config = join(bin, "docklens.json");
    await writeFile(config, JSON.stringify({ clusters: [{ name: "local", host: engines.hostA }] }));
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: engines.tmp,
      DOCKLENS_CONFIG: config,
      DOCKLENS_URL: "http://127.0.0.1:1",
    };
    const { stdout, stderr } = await exec(
      "bash",
      [join(import.meta.dirname, "../../examples/jq.sh")],
      { env },
    );
    const running = await docker(
      engines.hostA,
      "ps",
      "--filter",
      "status=running",
      "--format",
      "{{.Names}}",
    );
    for (const name of running.split("\n")) expect(stdout).toContain(`local\t/${name}\n`);
    expect(stdout).toContain("/failed\n");
    expect(stdout).toContain("local/sick\n");
    expect(stdout).toContain("local/web running\n");
    expect(stdout).toContain("shop: local/shop-web\n");
    expect(stderr).toBe(
      "no docklens serve answers on http://127.0.0.1:1: the HTTP example is skipped\n",
    );
  });
});

describe("the CLI examples of the README and the docs", () => {
  /** Each `$ docklens ...` of their console blocks, and the lines shown under it. */
  const examples = async () => {
    const docs = (await docsPages()).map((page) => page.text).join("\n");
    const blocks = [...docs.matchAll(/```console\n([\s\S]*?)```/g)].map((match) => match[1]!);
    return blocks.flatMap((block) =>
      block
        .replace(/^ {2}/gm, "")
        .split(/^\$ /m)
        .slice(1)
        .map((part) => {
          const [command, ...output] = part.trimEnd().split("\n");
          return { command: command!, output };
        })
        .filter(({ command }) => /^docklens [^|]+$/.test(command)),
    );
  };
  // The docs' clusters are local, prod, staging and lab; the test engine A is alpha.
  const args = (command: string) =>
    (command.match(/'[^']*'|\S+/g) ?? [])
      .slice(1)
      .map((word) => word.replace(/^'(.*)'$/, "$1"))
      .map((word) => (/^(local|prod|staging|lab)$/.test(word) ? "alpha" : word));
  const columns = (line: string) => line.trim().split(/\s{2,}/);
  const isHeader = (line: string | undefined) =>
    !!line && /^[A-Z][A-Z /%]+(\s{2,}[A-Z][A-Z /%]+)+$/.test(line.trim());

  it("show the table headers the commands print", async () => {
    const tables = (await examples()).filter(({ output }) => isHeader(output[0]));
    expect(tables.map(({ command }) => command)).toContain("docklens clusters");
    for (const { command, output } of tables) {
      const result = await cli([...args(command), "--config", engines.configPath]);
      const header = result.stdout.split("\n").find(isHeader);
      expect(header && columns(header), command).toEqual(columns(output[0]!));
    }
  }, 90_000);

  it("show timestamps as the commands print them", async () => {
    const timed = (await examples()).filter(({ command }) => / (-t|--timestamps)\b/.test(command));
    expect(timed.length).toBeGreaterThan(0);
    const shape = (line: string) => line.split(" ")[0]!.replace(/\d/g, "0");
    for (const { command, output } of timed) {
      const result = await cli([...args(command), "--config", engines.configPath]);
      expect(result.code, command).toBe(0);
      const printed = new Set(result.stdout.trim().split("\n").map(shape));
      expect(printed.size, command).toBe(1);
      for (const line of output) expect(printed, `${command}: ${line}`).toContain(shape(line));
    }
  });
});
