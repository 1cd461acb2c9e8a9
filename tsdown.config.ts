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

/**
 * Node built-ins that dependencies require at load time but use only on paths docklens rarely or
 * never takes: commander spawns executable subcommands (docklens has none), and docker-modem
 * reaches https engines. Each would cost a CLI run 2-3 ms; they load on first use instead.
 */
const LAZY_BUILTINS: Array<[importer: string, request: string]> = [
  ["commander/lib/command.js", "node:child_process"],
  ["docker-modem/lib/http.js", "https"],
];

/**
 * docker-modem formats every request's options with util.inspect for its debug log, even when
 * that log is off: about 2 ms per CLI run and a cost on every request `serve` makes. Only when on.
 */
const MODEM_DEBUG = ["debug('Sending: %s', util.inspect(options, {", "debug.enabled && debug('Sending: %s', util.inspect(options, {"] as const;

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
      // readable-stream 3 is a copy of Node 10's streams, for the one Duplex docker-modem makes.
      if (source === "readable-stream" && from.includes("node_modules/docker-modem/")) return { id: "node:stream", external: true };
      // debug (docker-modem's log, off unless DEBUG=modem) would look for an optional package
      // to pick 256 colours; its basic colours do.
      if (source === "supports-color" && from.endsWith("node_modules/debug/src/node.js")) return "\0docklens-none";
      const lazy = LAZY_BUILTINS.find(([file, request]) => from.endsWith(`node_modules/${file}`) && source === request);
      if (lazy) return `\0docklens-lazy-builtin:${lazy[1]}`;
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
      if (id === "\0docklens-none") return "module.exports = {};";
      if (id.startsWith("\0docklens-lazy-builtin:")) {
        // The module's properties, read from the real one, which is required on the first read.
        const name = JSON.stringify(id.slice("\0docklens-lazy-builtin:".length));
        return `let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require(${name}))[key] });`;
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
    transform(code, id) {
      if (!id.replaceAll("\\", "/").endsWith("node_modules/docker-modem/lib/modem.js")) return null;
      // Fail the build, rather than lose the fix unnoticed, when docker-modem changes this line.
      if (!code.includes(MODEM_DEBUG[0])) throw new Error("docker-modem's request debug line changed; update MODEM_DEBUG in tsdown.config.ts");
      return code.replace(MODEM_DEBUG[0], MODEM_DEBUG[1]);
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
    alwaysBundle: [/^(commander|chalk|cli-table3|cosmiconfig|env-paths|zod|dockerode|docker-modem)(\/|$)/],
    neverBundle: ["typescript", "h3", "listhen"],
    onlyBundle: false,
  },
  plugins: [lazyDockerodeParts()],
});
