import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Checks, after the whole run, that no test left anything in the temp dir.
    globalSetup: ["test/setup/temp-dir.ts"],
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // Starts two real dockerd engines with fixtures; fails (never skips) without Docker.
          globalSetup: ["test/setup/engines.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
