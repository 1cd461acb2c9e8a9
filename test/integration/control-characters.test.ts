import { describe, expect, it } from "vitest";
import { cli, containerForFile, docker, engines } from "./helpers.ts";

/**
 * An engine's control characters never reach a terminal from human output: a label that would
 * retitle and recolour it reads as docker inspect writes it; logs and attach stay raw, as docker's.
 */
const EVIL = "\u001b]0;title\u0007\u001b[31m";
const ESCAPED = "\\u001b]0;title\\u0007\\u001b[31m";
const NAME = `lens-evil-${process.pid}`;
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

containerForFile(engines.hostA, [
  "--name",
  NAME,
  "-l",
  `evil=${EVIL}`,
  "local/busybox:1",
  "sh",
  "-c",
  `printf '${EVIL}red\\n'; sleep 600`,
]);

describe("human output escapes control characters", () => {
  it("detail container writes them as docker inspect does", async () => {
    const inspected = await docker(engines.hostA, "inspect", "-f", "{{json .Config.Labels}}", NAME);
    expect(inspected).toContain(ESCAPED);
    const result = await withConfig("detail", "container", "alpha", NAME);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain(`evil=${ESCAPED}`);
  });

  it.each([
    [["ps", "alpha", "--filter", `name=${NAME}`, "--format", '{{.Label "evil"}}']],
    [["ps", "alpha", "--filter", `name=${NAME}`, "--format", "table {{.Names}}\t{{.Labels}}"]],
    [["containers", "alpha", "--filter", `name=${NAME}`, "--format", "{{.Labels}}"]],
  ])("%j", async (args) => {
    const result = await withConfig(...args);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain(ESCAPED);
  });

  it("logs stay raw, as docker logs prints them", async () => {
    const theirs = await docker(engines.hostA, "logs", NAME);
    expect(theirs).toContain(`${EVIL}red`);
    const ours = await withConfig("logs", "alpha", NAME);
    expect(ours.stdout).toContain(`${EVIL}red`);
  });
});
