import { defineConfig } from "tsdown";
import { lighterDependencies } from "./build/lighter-dependencies.ts";

export default defineConfig({
  entry: { index: "src/index.ts", server: "src/server/app.ts", cli: "src/cli/main.ts" },
  format: "esm",
  platform: "node",
  target: "node20.19",
  dts: { entry: ["src/index.ts", "src/server/app.ts"] },
  clean: true,
  minify: true,
  // `__dirname` and `__filename` for the CommonJS bundled in (ssh2's Poly1305 reads `__dirname`).
  shims: true,
  // One file per lazy step loads faster than hundreds of package files resolved one by one.
  deps: {
    alwaysBundle: [
      /^(commander|chalk|cli-table3|cosmiconfig|env-paths|zod|dockerode|docker-modem|re2js|ssh2)(\/|$)/,
    ],
    neverBundle: ["typescript", "h3", "listhen"],
    onlyBundle: false,
  },
  plugins: [lighterDependencies()],
  outputOptions: {
    codeSplitting: {
      groups: [
        {
          name: "core",
          // Declarations keep their own chunks.
          test: new RegExp(
            String.raw`[\\/]src[\\/](core[\\/](?!config[\\/]config-schema|engine[\\/]ssh-agent|filter-keys)` +
              String.raw`|cli[\\/]run\.ts)(?!.*\.d\.[cm]?ts$)`,
          ),
        },
      ],
    },
  },
});
