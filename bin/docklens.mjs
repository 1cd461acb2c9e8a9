#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ keeps V8's compiled code in the temp dir, as tsc does: later runs skip compiling
// the bundle (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
module.enableCompileCache?.();
const { main } = await import("../dist/cli.mjs");
await main();
