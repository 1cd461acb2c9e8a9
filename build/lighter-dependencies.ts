// The bundle's diet: what docklens's dependencies load that a read-only inspector never runs,
// replaced at build time so that a CLI run loads less (see "Development" in the README).
import type { UserConfig } from "tsdown";

type Plugin = Extract<NonNullable<UserConfig["plugins"]>, { name: string }>;

/** A module whose require throws: an optional native part its user requires in a `try`. */
const unavailable = (what: string) => `throw new Error("docklens bundles ssh2 without ${what}");`;

/** A Node built-in whose properties are read from the real module, required on the first read. */
const onFirstUse = (name: string) => `let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require(${JSON.stringify(name)}))[key] });`;

/**
 * What dependencies require that docklens replaces in the bundle: [requiring file, request, the
 * module's code]. A CLI run pays for every module loaded:
 * - ssh2's optional native parts are left out, so that an install builds nothing;
 * - child_process (commander: executable subcommands, docklens has none) loads on first use.
 * docklens speaks to engines with Node's HTTP client itself (core/engine/engine-client.ts): no
 * Docker client library, and none of what dockerode and docker-modem load, is bundled.
 */
const REPLACEMENTS: Array<[importer: string, request: string, replacement: string]> = [
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
];

const REPLACED = "\0docklens-replaced:";
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

/**
 * The plugin that makes the replacements above. Every one must apply: a dependency that moved or
 * rewrote a file fails the build, rather than the bundle silently growing back.
 */
export function lighterDependencies(): Plugin {
  const replaced = new Set<number>();
  return {
    name: "docklens:lighter-dependencies",
    buildStart() {
      replaced.clear();
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
        return `${REPLACED}${index}`;
      },
    },
    load: {
      filter: { id: new RegExp(`^${REPLACED}`) },
      handler: (id) => REPLACEMENTS[Number(id.slice(REPLACED.length))]![2],
    },
    renderChunk(code, chunk) {
      // Declarations import types, which need no module at run time.
      if (/\.d\.[cm]?ts$/.test(chunk.fileName)) return null;
      return withoutBuiltinNamespaces(code);
    },
    buildEnd(error) {
      if (error) return;
      const missed = REPLACEMENTS.filter((_, index) => !replaced.has(index));
      for (const [file, request] of missed) fail(`${file} no longer requires ${request}`);
    },
  };
}

function fail(what: string): never {
  throw new Error(`${what}: update build/lighter-dependencies.ts`);
}
