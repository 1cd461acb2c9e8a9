import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referencePages } from "../../scripts/reference-pages.ts";
import type {
  ClusterConfigInput,
  DocklensConfigInput,
} from "../../src/core/config/config-schema.ts";

/**
 * The docs site's CLI and route reference are made from the operation table: the checked-in
 * pages must be what the generator makes now. `npm run docs:reference` writes them again.
 */
const root = join(import.meta.dirname, "../..");

describe("the generated reference pages", () => {
  it("are what scripts/reference-pages.ts makes of the operation table now", async () => {
    const pages = await referencePages();
    if (process.env.DOCKLENS_WRITE_REFERENCE)
      for (const [file, text] of Object.entries(pages)) await writeFile(join(root, file), text);
    for (const [file, text] of Object.entries(pages)) {
      const checkedIn = await readFile(join(root, file), "utf8").catch(() => "");
      expect(checkedIn, `${file} is out of date: npm run docs:reference`).toBe(text);
    }
  });

  it("document every command and every route", async () => {
    const pages = await referencePages();
    const { createProgram } = await import("../../src/cli/main.ts");
    const cli = pages["docs/reference/cli.md"]!;
    for (const command of createProgram().commands) {
      expect(cli).toContain(`## docklens ${command.name()}\n`);
      for (const sub of command.commands)
        expect(cli).toContain(`## docklens ${command.name()} ${sub.name()}\n`);
    }
    const { API_ROUTES } = await import("../../src/server/routes.ts");
    for (const route of API_ROUTES)
      expect(pages["docs/reference/routes.md"]).toContain(`## GET ${route.path}\n`);
  });

  it("name every key of the config file in the config reference", async () => {
    // Exhaustive by type: a key added to the config's input fails the type check here.
    const keys = {
      clusters: 1,
      defaults: 1,
      showSecrets: 1,
      maxSelection: 1,
      contexts: 1,
      discover: 1,
      tokens: 1,
      allowedHosts: 1,
      maxStreams: 1,
      alerts: 1,
      nats: 1,
      nodes: 1,
      history: 1,
      metrics: 1,
    } satisfies Record<keyof DocklensConfigInput, 1>;
    const clusterKeys = {
      id: 1,
      name: 1,
      icon: 1,
      host: 1,
      port: 1,
      tls: 1,
      ssh: 1,
      timeoutMs: 1,
      maxConcurrency: 1,
      cacheTtlMs: 1,
      diskUsageTimeoutMs: 1,
    } satisfies Record<keyof ClusterConfigInput, 1>;
    const page = await readFile(join(root, "docs/reference/config.md"), "utf8");
    for (const key of Object.keys(keys)) expect(page).toContain(`| \`${key}\``);
    for (const key of Object.keys(clusterKeys)) expect(page).toContain(`| \`clusters[].${key}\``);
  });
});
