import { defineConfig } from "vitest/config";

/**
 * Bodies of shared engine reads are frozen in every test (src/core/engine/shared-reads.ts), so
 * that code which changes one fails there; the CLI the tests run gets it from test helpers.
 */
const env = { DOCKLENS_FREEZE_SHARED_READS: "1" };

export default defineConfig({
  test: {
    // Gives the run a temp dir of its own (TMPDIR), and fails the run on anything left in it.
    globalSetup: ["test/setup/temp-dir.ts"],
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], env } },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          env,
          // Starts two real dockerd engines with fixtures; fails (never skips) without Docker.
          // The run's temp dir first: made before the engines start, checked after they stopped.
          globalSetup: ["test/setup/temp-dir.ts", "test/setup/engines.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
