import type { ChalkInstance } from "chalk";
import * as core from "../index.ts";
import { createColors } from "./format.ts";

/** Options every command takes (D14). */
export interface CommandOptions {
  config?: string;
  json?: boolean;
}

type Core = typeof core;
type Tables = typeof import("./tables.ts");

/**
 * Run one command: load the config, ask the core, then print the route's JSON body (`--json`)
 * or a table for people. Errors propagate to `main`, which owns messages and exit codes.
 */
export async function run<T>(
  options: CommandOptions,
  query: (lib: Core, coreOptions: core.CoreOptions) => Promise<T> | T,
  render: (tables: Tables, result: T, colors: ChalkInstance) => string,
): Promise<void> {
  const registry = await core.loadRegistry(options.config ? { configPath: options.config } : {});
  try {
    const result = await query(core, { registry });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, process.stdout.isTTY ? 2 : undefined)}\n`);
    } else {
      // Tables and their dependencies load only for people, not for `--json` pipelines.
      const tables = await import("./tables.ts");
      process.stdout.write(`${render(tables, result, createColors())}\n`);
    }
  } finally {
    registry.close();
  }
}
