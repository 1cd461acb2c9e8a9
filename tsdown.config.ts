import { defineConfig, type UserConfig } from "tsdown";

type Plugin = Extract<NonNullable<UserConfig["plugins"]>, { name: string }>;

/**
 * dockerode loads gRPC and protobuf (BuildKit sessions), tar-fs (build contexts) and ssh2 when it
 * is required, which costs a CLI run about 65 ms before it has asked anything. docklens never
 * builds, so the first two become stubs that throw; ssh2 is loaded when an SSH engine is dialled.
 */
const STUBS: Array<[importer: string, request: string, what: string]> = [
  ["dockerode/lib/docker.js", "./session", "BuildKit sessions"],
  ["dockerode/lib/docker.js", "./buildkit", "BuildKit"],
  ["dockerode/lib/util.js", "tar-fs", "build contexts"],
];

function lazyDockerodeParts(): Plugin {
  return {
    name: "docklens:lazy-dockerode-parts",
    resolveId: {
      // Before the dependency plugin, which would mark ssh2 external and keep its eager require.
      order: "pre",
      handler(source, importer) {
      const from = importer?.replaceAll("\\", "/") ?? "";
      const stub = STUBS.find(([file, request]) => from.endsWith(`node_modules/${file}`) && source === request);
      if (stub) return `\0docklens-stub:${stub[2]}`;
      if (source === "ssh2" && from.endsWith("node_modules/docker-modem/lib/ssh.js")) return "\0docklens-lazy:ssh2";
      return null;
      },
    },
    load(id) {
      if (id.startsWith("\0docklens-stub:")) {
        // A function that throws, with the two properties tar-fs users call, for every stub.
        const what = id.slice("\0docklens-stub:".length);
        return `function unused() { throw new Error("docklens is read-only and does not bundle ${what}"); }
module.exports = Object.assign(unused, { pack: unused, extract: unused });`;
      }
      if (id === "\0docklens-lazy:ssh2") {
        // `new Client()` on this function returns the real ssh2 client, loaded on first use.
        // A require of its own, which the bundler leaves alone: ssh2 stays an installed dependency.
        return `import { createRequire } from "node:module";
const load = createRequire(import.meta.url);
export function Client() { const Real = load("ssh2").Client; return new Real(); }`;
      }
      return null;
    },
  };
}

export default defineConfig({
  entry: { index: "src/index.ts", server: "src/server/app.ts", cli: "src/cli/main.ts" },
  format: "esm",
  platform: "node",
  target: "node20.19",
  dts: { entry: ["src/index.ts", "src/server/app.ts"] },
  clean: true,
  minify: true,
  // One file per lazy step loads faster than hundreds of package files resolved one by one.
  deps: {
    alwaysBundle: [/^(commander|chalk|cli-table3|cosmiconfig|zod|dockerode|docker-modem)(\/|$)/],
    neverBundle: ["typescript", "h3", "listhen"],
    onlyBundle: false,
  },
  plugins: [lazyDockerodeParts()],
});
