import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { toWebHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFleet } from "../../src/core/engine/fleet.ts";
import { createApp } from "../../src/server/app.ts";

/** Redocly's CLI, run by the Node running the tests; it sends nothing anywhere (telemetry off). */
const REDOCLY = join(
  createRequire(import.meta.url).resolve("@redocly/cli/package.json"),
  "../bin/cli.js",
);
const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-openapi-lint-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The document exactly as `docklens serve` serves it, with a token or without, from the app. */
async function servedDocument(token: string | undefined): Promise<string> {
  const fleet = createFleet({ clusters: [], showSecrets: false, source: null, warnings: [] });
  const handler = toWebHandler(createApp({ fleet, token, log: false }));
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const response = await handler(new Request("http://localhost/openapi.json", { headers }));
  expect(response.status).toBe(200);
  return response.text();
}

describe("/openapi.json under `redocly lint` with the recommended rules", () => {
  it.each([
    ["with a token", "lint-token"],
    ["without a token", undefined],
  ])(
    "has no error and no warning %s",
    async (name, token) => {
      const file = join(dir, `${name.replaceAll(" ", "-")}.json`);
      await writeFile(file, await servedDocument(token));
      const { stdout } = await run(
        process.execPath,
        [REDOCLY, "lint", file, "--extends", "recommended", "--format", "json"],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      ).catch((error: { stdout: string }) => error);
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string }>;
      };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    30_000,
  );

  it("asks for the bearer token on every operation but the public ones", async () => {
    type Operation = { security: Array<Record<string, string[]>> };
    const document = JSON.parse(await servedDocument("lint-token")) as {
      paths: Record<string, Record<string, Operation>>;
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        expect(operation.security, `${method} ${path}`).toEqual(
          path === "/healthz" ? [] : [{ bearer: [] }],
        );
  });
});
