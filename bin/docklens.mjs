#!/usr/bin/env node
import module from "node:module";

// package.json's engines, said in one line on an older Node rather than as an error from within.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(`docklens needs Node 22.13 or later; this is Node ${process.versions.node}`);
  process.exit(1);
}
// Node 22.1+ keeps V8's compiled code in the temp dir, as tsc does: later runs skip compiling
// the bundle (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
module.enableCompileCache();
const { main } = await import("../dist/cli.mjs");
await main();
