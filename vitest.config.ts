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
 * since what it changes would show in the lists the others compare with docker's: after them in
 * one vitest run; `npm test` (scripts/test.sh) runs those that drive no browser beside them
 * instead, in a second vitest run with engines of its own.
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
/** Those of them that drive a browser. */
const BROWSER = ALONE.filter((path) => path.startsWith("test/integration/browser/"));
/** How many files of the first group run at once. */
const AT_ONCE = 4;

const integration = {
  env,
  // Starts real dockerd and Podman engines with fixtures; fails (never skips) without them. The
  // integration projects of a vitest run share them (engines.ts). The run's temp dir first:
  // made before the engines start, checked after they stopped.
  globalSetup: ["test/setup/temp-dir.ts", "test/setup/engines.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // A poll without its own timeout waits up to 10 s, not vitest's 1 s: a page or a server's
  // second answer on a loaded CI lane. Polls only wait as long as they must.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    // Gives the run a temp dir of its own (TMPDIR), and fails the run on anything left in it.
    globalSetup: ["test/setup/temp-dir.ts"],
    // Each run's transforms on disk (node_modules/.experimental-vitest-cache), keyed by content:
    // the runs beside the first and those of the other Node versions do not transform again.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          env,
          // Beside integration files, a unit file shares the CPU: loading TypeScript for a
          // .ts config (config-probe.test.ts) took 5.8 s so, past vitest's 5 s.
          testTimeout: 20_000,
          // Pure code: the files of a worker share its modules, loaded once. Each file loading
          // them again cost a run 32 s of CPU (56 against 24 s) that the files beside it wanted.
          isolate: false,
          // So a stubbed variable (XDG_CONFIG_HOME) does not reach the next file.
          unstubEnvs: true,
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
          include: ALONE.filter((path) => !BROWSER.includes(path)),
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          // The browser files that change engines: after the read-only ones, which a browser
          // beside them would slow (scripts/test.sh runs integration-alone beside all three).
          name: "integration-browser",
          include: BROWSER,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
