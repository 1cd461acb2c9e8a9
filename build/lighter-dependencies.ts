// The bundle's diet: what docklens's dependencies load that a read-only inspector never runs,
// replaced at build time so that a CLI run loads less (docs/design/build.md).
import type { UserConfig } from "tsdown";

type Plugin = Extract<NonNullable<UserConfig["plugins"]>, { name: string }>;

/** A module that throws if used: code docklens never runs (with the two calls tar-fs users make). */
const throwing = (
  what: string,
) => `function unused() { throw new Error("docklens is read-only and does not bundle ${what}"); }
module.exports = Object.assign(unused, { pack: unused, extract: unused });`;

/** A module whose require throws: an optional native part its user requires in a `try`. */
const unavailable = (what: string) => `throw new Error("docklens bundles ssh2 without ${what}");`;

/** A Node built-in whose properties are read from the real module, required on the first read. */
const onFirstUse = (name: string) => `let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require(${JSON.stringify(name)}))[key] });`;

/**
 * What dependencies require that docklens replaces in the bundle: [requiring file, request, the
 * module's code or an external to use instead]. A CLI run pays for every module loaded, and these
 * cost it ~75 ms in all before it has asked anything:
 * - dockerode loads gRPC and protobuf (BuildKit sessions), tar-fs and @balena/dockerignore (build
 *   contexts); docklens never builds, so they become stubs that throw;
 * - docker-modem's SSH agent (and its eager require of ssh2) becomes a stub: docklens has its own,
 *   which loads ssh2 for SSH clusters only; ssh2's optional native parts are left out;
 * - child_process (commander: executable subcommands, docklens has none),
 *   https (docker-modem, for TLS engines), stream (docker-modem: an abort signal on a response)
 *   and zlib (dockerode: gzipped build contexts) load on first use;
 * - readable-stream 3 is a copy of Node 10's streams, for the one Duplex docker-modem makes;
 * - debug (docker-modem's log, off unless DEBUG=modem) would look for supports-color to pick 256
 *   colours; its basic colours do.
 */
const REPLACEMENTS: Array<
  [importer: string, request: string, replacement: string | { external: string }]
> = [
  ["dockerode/lib/docker.js", "./session", throwing("BuildKit sessions")],
  ["dockerode/lib/docker.js", "./buildkit", throwing("BuildKit")],
  ["dockerode/lib/util.js", "tar-fs", throwing("build contexts")],
  ["dockerode/lib/util.js", "@balena/dockerignore", throwing("build contexts")],
  // docklens reaches SSH engines through its own agent (ssh-agent.ts), never docker-modem's.
  ["docker-modem/lib/ssh.js", "ssh2", throwing("docker-modem's SSH agent")],
  // ssh2's native parts, each optional to it (required in a try): a crypto binding and CPU
  // feature detection, built with node-gyp on install. Bundled without them, ssh2 uses Node's
  // crypto and its own WebAssembly Poly1305, and an install builds nothing.
  [
    "ssh2/lib/protocol/crypto.js",
    "./crypto/build/Release/sshcrypto.node",
    unavailable("ssh2's native crypto binding"),
  ],
  ["ssh2/lib/protocol/constants.js", "cpu-features", unavailable("cpu-features")],
  ["commander/lib/command.js", "node:child_process", onFirstUse("node:child_process")],
  ["docker-modem/lib/http.js", "https", onFirstUse("https")],
  ["docker-modem/lib/modem.js", "stream", onFirstUse("stream")],
  ["dockerode/lib/util.js", "zlib", onFirstUse("zlib")],
  ["docker-modem/lib/http_duplex.js", "readable-stream", { external: "node:stream" }],
  ["debug/src/node.js", "supports-color", "module.exports = {};"],
];

/**
 * Edits of docker-modem's modem.js, each [what it says, what it says instead]; the build fails
 * when one no longer matches, rather than losing it unnoticed:
 * - it formats every request's options with util.inspect for its debug log, even when that log
 *   is off: about 2 ms per CLI run and a cost on every request `serve` makes. Only when on;
 * - it builds each TCP request's address with url.parse, url.format and url.resolve, and Node 24
 *   warns on stderr about url.parse (DEP0169) in every such command. docklens always gives a
 *   bare host name and a path of checked names, so the address is the path, on that host and port;
 * - it loads debug for its log, on or off: debug, tty and process.stderr cost a CLI run ~1.3 ms.
 *   It loads when DEBUG is set (debug reads DEBUG once, as it loads), so DEBUG=modem still logs.
 */
const MODEM_EDITS: Array<[string, string]> = [
  [
    "debug('Sending: %s', util.inspect(options, {",
    "debug.enabled && debug('Sending: %s', util.inspect(options, {",
  ],
  [
    `  if (this.host) {
    var parsed = url.parse(this.host);
    address = url.format({
      protocol: parsed.protocol || this.protocol,
      hostname: parsed.hostname || this.host,
      port: this.port,
      pathname: parsed.pathname || this.pathPrefix,
    });
    address = url.resolve(address, options.path);
  } else {
    address = options.path;
  }`,
    "  address = options.path;",
  ],
  [
    `    var urlp = url.parse(address);
    optionsf.hostname = urlp.hostname;
    optionsf.port = urlp.port;
    optionsf.path = urlp.path;`,
    `    optionsf.hostname = this.host;
    optionsf.port = this.port;`,
  ],
  [
    "debug = require('debug')('modem'),",
    "debug = process.env.DEBUG ? require('debug')('modem') : Object.assign(() => {}, { enabled: false }),",
  ],
];

const REPLACED = "\0docklens-replaced:";
const MODEM = /node_modules[\\/]docker-modem[\\/]lib[\\/]modem\.js$/;
/** Exactly the requests some replacement names, so that the bundler asks the plugin of no other. */
const REQUESTS = new RegExp(
  `^(?:${[...new Set(REPLACEMENTS.map(([, request]) => request))]
    .map((request) => request.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join("|")})$`,
);

/**
 * A static import of a Node built-in, as the bundler writes one at the start of a line:
 * `import{a as b}from"node:fs";`, `import fs from "node:fs";`, `import fs, { a } from "node:fs";`.
 */
const BUILTIN_IMPORT =
  /^import\s*([\w$]+)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s*["'](node:[\w/]+)["'];?/gm;
/** Any import of a built-in left after the rewrite: only namespaces (`* as x`) may stay. */
const LEFT_IMPORT = /^import(?!\s*\*)[^;'"]*from\s*["']node:/m;

/**
 * The same imports without their ESM namespaces: Node builds a built-in's namespace by reading
 * every export, and some exports load modules on first read (`node:http`'s loads undici, about
 * 25 ms of a run on Node 24; `node:fs` and `node:util` cost ~3 ms each).
 * `process.getBuiltinModule` (Node 20.16) returns the module itself, which is also what a default
 * import of a built-in gives. A namespace import (`* as x`) stays as it is, for its `default`.
 */
export function withoutBuiltinNamespaces(code: string): string {
  const rewritten = code.replace(
    BUILTIN_IMPORT,
    (whole, only: string | undefined, named: string | undefined, id: string) => {
      if (only === undefined && named === undefined) return whole;
      // globalThis: the import may itself bind the name `process`.
      const module = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
      const wholes = only ? [only] : [];
      const fields: string[] = [];
      for (const field of (named ?? "").replace(/\/\*[^]*?\*\/|\/\/.*$/gm, "").split(",")) {
        const [name, alias = name] = field.trim().split(/\s+as\s+/);
        if (!name) continue;
        if (name === "default") wholes.push(alias!);
        else fields.push(alias === name ? name : `${name}:${alias}`);
      }
      const bindings = [...wholes, ...(fields.length ? [`{${fields.join(",")}}`] : [])];
      return bindings.map((binding) => `const ${binding}=${module};`).join("");
    },
  );
  const left = LEFT_IMPORT.exec(rewritten);
  if (left) throw new Error(`${left[0]}…: a form of import the build cannot read`);
  return rewritten;
}

/** A CommonJS module's wrapper as the bundler writes it: `__commonJSMin(((exports, module) => {`. */
const COMMONJS_WRAPPER = /__commonJSMin\(\(\(((?:exports(?:, module)?)?)\) => \{/g;

/**
 * The same wrappers as parenthesised function expressions, which V8 compiles with the chunk
 * (its heuristic for a function called at once), where it compiles an arrow only when first
 * called. A chunk is then scanned once, not a second time for each module it requires; Node 22's
 * compile cache keeps what was compiled with the chunk, not what was compiled on a first call.
 * It saved most on Node 20 and 22 (bench/README.md, bench/cli.mjs). Wrappers are called plainly, in strict
 * code, so `this` stays `undefined`.
 */
export function withEagerCommonJs(code: string): string {
  const eager = code.replace(COMMONJS_WRAPPER, "__commonJSMin((function ($1) {");
  if (/__commonJSMin\((?!\(function )/.test(eager))
    throw new Error(
      "a CommonJS wrapper the build cannot read: update build/lighter-dependencies.ts",
    );
  return eager;
}

/** A chunk of type declarations, which imports types and needs no module at run time. */
const DECLARATIONS = /\.d\.[cm]?ts$/;

/** A character beyond ASCII, one UTF-16 code unit at a time (an emoji is two). */
const NON_ASCII = /[^\0-\x7f]/g;

/**
 * The same code in ASCII alone: each character beyond it as the `\u` escape of its UTF-16 code
 * units, which strings, templates, regular expressions (with the `u` flag or without) and
 * identifiers read as the character itself. One such character (the 🐳 of a cluster's default
 * icon) makes V8 hold the whole chunk as two bytes a character, and Node decode it, hash it for
 * its compile cache and V8 scan it more slowly: the core chunk cost a CLI run ~5 M instructions
 * more (Node 22 to 26, bench/cli.mjs). Fails on a character escaped with a backslash, whose
 * meaning the escape would change.
 */
export function asciiOnly(code: string): string {
  const escaped = /\\[^\0-\x7f]/.exec(code);
  if (escaped)
    fail(`a character escaped with a backslash (${escaped[0]}) the build cannot write in ASCII`);
  return code.replace(
    NON_ASCII,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The plugin that makes the replacements and edits above. Every one must apply: a dependency
 * that moved or rewrote a file fails the build, rather than the bundle silently growing back.
 */
export function lighterDependencies(): Plugin {
  const replaced = new Set<number>();
  let modemEdited = false;
  let eagerWrappers = 0;
  return {
    name: "docklens:lighter-dependencies",
    buildStart() {
      replaced.clear();
      modemEdited = false;
    },
    resolveId: {
      // Before the dependency plugin, which would mark ssh2 external and keep its eager require.
      order: "pre",
      filter: { id: REQUESTS },
      handler(source, importer) {
        const from = importer?.replaceAll("\\", "/") ?? "";
        const index = REPLACEMENTS.findIndex(
          ([file, request]) => from.endsWith(`node_modules/${file}`) && source === request,
        );
        if (index === -1) return null;
        replaced.add(index);
        const replacement = REPLACEMENTS[index]![2];
        return typeof replacement === "string"
          ? `${REPLACED}${index}`
          : { id: replacement.external, external: true };
      },
    },
    load: {
      filter: { id: new RegExp(`^${REPLACED}`) },
      handler: (id) => REPLACEMENTS[Number(id.slice(REPLACED.length))]![2] as string,
    },
    transform: {
      filter: { id: MODEM },
      handler(code) {
        modemEdited = true;
        return MODEM_EDITS.reduce((edited, [from, to]) => {
          if (!edited.includes(from))
            fail(`docker-modem's modem.js no longer says: ${from.split("\n")[0]}`);
          return edited.replace(from, to);
        }, code);
      },
    },
    renderChunk(code, chunk) {
      // Declarations import types, which need no module at run time.
      if (DECLARATIONS.test(chunk.fileName)) return null;
      eagerWrappers += code.match(COMMONJS_WRAPPER)?.length ?? 0;
      return withEagerCommonJs(withoutBuiltinNamespaces(code));
    },
    generateBundle(_options, bundle) {
      // dockerode and commander are CommonJS: a bundle without wrappers means they changed form.
      if (!eagerWrappers) fail("no CommonJS wrapper was made eager");
      eagerWrappers = 0;
      // Here, after the minifier, which writes escaped characters back as themselves.
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk" && !DECLARATIONS.test(chunk.fileName))
          chunk.code = asciiOnly(chunk.code);
    },
    buildEnd(error) {
      if (error) return;
      const missed = REPLACEMENTS.filter((_, index) => !replaced.has(index));
      for (const [file, request] of missed) fail(`${file} no longer requires ${request}`);
      if (!modemEdited) fail("docker-modem/lib/modem.js was not bundled");
    },
  };
}

function fail(what: string): never {
  throw new Error(`${what}: update build/lighter-dependencies.ts`);
}
