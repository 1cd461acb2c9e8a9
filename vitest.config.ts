import { readdirSync } from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * Bodies of shared engine reads are frozen in every test (src/core/engine/shared-reads.ts), so
 * that code which changes one fails there; the CLI the tests run gets it from test helpers.
 */
const env = { DOCKLENS_FREEZE_SHARED_READS: "1" };

/**
 * Integration files that change nothing on the suite's engines (no container, image, volume or
 * network made, stopped or removed on A, B or Podman: engines of their own are theirs). They run
 * several at once, beside the unit files: they mostly wait on engines, serve and browsers, not on
 * the CPU. Every other integration file (a new one too, until it is listed here) runs alone,
 * after them, since what it changes would show in the lists the others compare with docker's.
 */
const READ_ONLY = [
  "across",
  "all-stats",
  "cli-habits",
  "cli-streams",
  "clusters",
  "compression",
  "config",
  "containers",
  "contexts",
  "dashboard-server",
  "detail-container",
  "disk-usage",
  "docker-habits",
  "engine-facts",
  "engine-restart",
  "examples",
  "exposing",
  "failures",
  "faults",
  "filters",
  "format",
  "many-podman",
  "mcp",
  "metrics",
  "networks-volumes",
  "openapi-properties",
  "package",
  "podman-names",
  "podman",
  "prometheus-rules",
  "published-types",
  "quiet",
  "serve",
  "server-access",
  "server",
  "ssh",
  "stats-process",
  "tls",
  "browser/dashboard-fleet",
  "browser/dashboard-token",
  "browser/rebinding",
].map((name) => `test/integration/${name}.test.ts`);
/** The other integration files, each run alone (a list, not an exclude: `--exclude` keeps working). */
const ALONE = readdirSync(new URL("test/integration", import.meta.url), {
  recursive: true,
  encoding: "utf8",
})
  .map((name) => `test/integration/${name}`)
  .filter((path) => path.endsWith(".test.ts") && !READ_ONLY.includes(path));
/** How many files of the first group run at once. */
const AT_ONCE = 4;

const integration = {
  env,
  // Starts two real dockerd engines with fixtures; fails (never skips) without Docker. Both
  // integration projects share them (engines.ts). The run's temp dir first: made before the
  // engines start, checked after they stopped.
  globalSetup: ["test/setup/temp-dir.ts", "test/setup/engines.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Gives the run a temp dir of its own (TMPDIR), and fails the run on anything left in it.
    globalSetup: ["test/setup/temp-dir.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          env,
          // Beside integration files, a unit file shares the CPU: loading TypeScript for a
          // .ts config (config-probe.test.ts) took 5.8 s so, past vitest's 5 s.
          testTimeout: 20_000,
          maxWorkers: AT_ONCE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: "integration",
          include: READ_ONLY,
          maxWorkers: AT_ONCE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: "integration-alone",
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
