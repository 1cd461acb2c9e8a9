#!/usr/bin/env node
// Many `docklens node`s in one process, for bench/nodes.mjs: a hundred node processes would cost
// a hundred Node runtimes on a 2-core machine. Each node is the built CLI's own `node` command
// (src/cli/node.ts, the chunk dist/cli.mjs loads for `docklens node`), run once per node with its
// own config and NATS connection, exactly as `docklens node --nats URL --name NAME --config FILE`
// runs it. Each says "docklens node NAME: serving …" on stdout when it serves; SIGTERM ends them.
//   node bench/node-host.mjs NATS_URL HEARTBEAT_SECONDS NAME=CONFIG…
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const [nats, heartbeat, ...nodes] = process.argv.slice(2);
const cli = readFileSync(join(ROOT, "dist/cli.mjs"), "utf8");
const chunk = /import\(`\.\/(node-[\w-]+\.mjs)`\)\)\.node\(/.exec(cli)?.[1];
if (!chunk) throw new Error("dist/cli.mjs loads no node chunk: run `npm run build`");
const { node } = await import(join(ROOT, "dist", chunk));
// Each node listens for SIGINT and SIGTERM.
process.setMaxListeners(0);
for (const given of nodes) {
  const [name, config] = given.split("=");
  node({ nats, name, config, heartbeat }).catch((error) => {
    process.stderr.write(`node ${name}: ${error.message}\n`);
    process.exit(1);
  });
}
