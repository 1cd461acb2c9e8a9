import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { mayHaveMetaConfig } from "./config-probe.ts";

/** A config file as cosmiconfig returns it: what it holds and where it is. */
export interface FoundConfig {
  config: unknown;
  filepath: string;
  /** The file holds nothing (cosmiconfig's word for it). */
  isEmpty?: boolean;
}

/**
 * A config file named by `--config` or `DOCKLENS_CONFIG` that ends in `.json`, read as
 * cosmiconfig's `load` reads it (the UTF-8 text, through its JSON loader, which is `JSON.parse`
 * when the text parses), without loading cosmiconfig.
 *
 * Why: loading cosmiconfig and reading the file through it (its loaders bring node:crypto,
 * parse-json and @babel/code-frame) cost `docklens containers x --json --config f.json` 10 to
 * 12 ms (Node 20 to 24, the least of 21 runs), an eighth of the run (bench/cli.mjs); this, 0.1 ms.
 *
 * `undefined` whenever cosmiconfig would do more than that, for it to read the file and decide:
 * a `package.json` (it takes the `docklens` key), a file that cannot be read, is empty or is not
 * JSON (its messages say why), a value that is not an object or that has `$import` (its merging;
 * `null` is its "nothing found"), and a working directory with settings of cosmiconfig's own.
 */
export function readJsonConfig(filepath: string): FoundConfig | undefined {
  // cosmiconfig picks a loader by extname, and reads `package.json` for one key of it.
  if (extname(filepath) !== ".json" || basename(filepath) === "package.json") return undefined;
  if (mayHaveMetaConfig(process.cwd())) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(filepath, "utf8"));
  } catch {
    return undefined;
  }
  return typeof config === "object" && config !== null && !Object.hasOwn(config, "$import")
    ? { config, filepath }
    : undefined;
}
