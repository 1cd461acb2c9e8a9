import { defineConfig } from "tsdown";
import { lighterDependencies } from "./build/lighter-dependencies.ts";

/**
 * What the CLI's chunk imports at once, as one chunk: the operation table, the core a one-off
 * runs, and the small modules both use. Each chunk more costs a run a resolve, a read and a
 * compile-cache lookup. Left out, each in a chunk loaded when used: the config's zod schemas
 * (every config/*-schema.ts), the alerts, history (node:sqlite with it), NATS (nodes over it),
 * the SSH agent, the filter keys of the help, the input decoder (zod).
 */
const CORE = [
  String.raw`[\\/]src[\\/]core[\\/]` +
    String.raw`(?!config[\\/][\w-]+-schema|alerts[\\/]|history[\\/]|` +
    String.raw`(?:engine|node)[\\/]nats-|engine[\\/]ssh-agent|filter-keys)`,
  String.raw`[\\/]src[\\/]operations[\\/](?!decode|input-schema)`,
  String.raw`[\\/]src[\\/]cli[\\/](?:run|render[\\/]escape)\.ts`,
  String.raw`[\\/]node_modules[\\/]leven[\\/]`,
  String.raw`[\\/]package\.json$`,
  String.raw`^\0rolldown[\\/]runtime`,
];

export default defineConfig({
  entry: { index: "src/index.ts", server: "src/server/app.ts", cli: "src/cli/main.ts" },
  format: "esm",
  platform: "node",
  target: "node22.13",
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
          test: new RegExp(`(?:${CORE.join("|")})(?!.*\\.d\\.[cm]?ts$)`),
        },
      ],
    },
  },
});
