// Running one command: load the config, make the core call, print the result for people or as
// the route's JSON body, as a stream or again and again with --watch.
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { DocklensError } from "../core/errors.ts";
import { openFleet } from "../core/node/open-fleet.ts";
import { toJsonText } from "../core/json.ts";
import type { AnyCommandSpec, CommandOptions } from "../operations/command.ts";
import type { SelectionFlags } from "../operations/selection-flags.ts";
import { withCluster } from "./left-out-cluster.ts";
import { viewOf, type Render } from "./views.ts";

/**
 * Run one command: load the config, ask the core, then print the route's JSON body (`--json`)
 * or a table for people. A result that is a stream (logs `--follow`, stats `--stream`, attach)
 * prints item by item, NDJSON with `--json`, until it ends or Ctrl-C, which closes the engine
 * stream before docklens exits. With `watch`, the query runs again that many seconds after each
 * answer (never two at once), redrawing the table in place, or one JSON line per answer, until
 * Ctrl-C. Errors propagate to `main`, which owns messages and exit codes. A view that renders
 * nothing prints nothing.
 */
export async function run(
  spec: AnyCommandSpec,
  args: unknown[],
  options: CommandOptions,
): Promise<void> {
  try {
    await runCall(spec, args, options);
  } catch (error) {
    throw inFlags(spec, error);
  }
}

/** The long flag of an option (`-n, --tail <lines>`: `--tail`), and its value's key (`tail`). */
function flagOf(flags: string): { flag: string; key: string } {
  const flag = /--[\w-]+/.exec(flags)![0];
  const key = flag
    .slice(2)
    .replace(/^no-/, "")
    .replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  return { flag, key };
}

/** The command's input: each option that names a field, its value decoded by the field's rules. */
async function inputOf(spec: AnyCommandSpec, options: CommandOptions) {
  if (!spec.input) return {};
  const values = options as unknown as Record<string, unknown>;
  const raw: Record<string, unknown> = Object.fromEntries(
    (spec.options ?? []).flatMap(({ flags, field }): Array<[string, unknown]> => {
      const value = field === undefined ? undefined : values[flagOf(flags).key];
      return field === undefined || value === undefined ? [] : [[field, value]];
    }),
  );
  // Nothing given decodes to nothing: zod loads only when a flag of the input is given.
  if (!Object.keys(raw).length) return {};
  return (await import("../operations/decode.ts")).decode(spec.input, raw);
}

/**
 * An error about an input field (`tail: expected…`) as the command's flag says it (`--tail:
 * expected…`): the flag of the option that fills the field.
 */
function inFlags(spec: AnyCommandSpec, error: unknown): unknown {
  const { param, message } = error as { param?: string; message?: string };
  const option = param && spec.options?.find(({ field }) => field === param);
  if (!option || !message?.startsWith(`${param}:`)) return error;
  (error as Error).message = `${flagOf(option.flags).flag}${message.slice(param.length)}`;
  return error;
}

async function runCall(spec: AnyCommandSpec, args: unknown[], options: CommandOptions) {
  // main.ts runs only entries with a core call here.
  const input = await inputOf(spec, options);
  const query = spec.call!;
  // A watch keeps each engine's container mirror (list once, then its events), as serve does,
  // rather than listing every engine again each round (core/hub/).
  // With the clusters of the config's nodes, each node asked once within its time limit.
  const opened = await openFleet({
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.watch ? { live: true } : {}),
  });
  const { fleet } = opened;
  if (targetsAll(spec, args)) printWarnings(fleet.config.warnings);
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // One listener per engine call: `clusters` over many engines adds many.
  const stop = () => controller.abort();
  const coreOptions = { fleet, signal: controller.signal };
  try {
    args = withCluster(spec, args, fleet.config.clusters, options as SelectionFlags);
    const hooks = spec.hooks?.(args, options) ?? {};
    // Tables and their dependencies load only for people, not for `--json` pipelines.
    const render: Render | undefined = options.json ? undefined : await import("./render/index.ts");
    const { view: viewFor, raw, blank } = viewOf(spec);
    const view = render && viewFor(render, options);
    const colors = render?.createColors();
    // Views print engine data with its control characters escaped, but for a container's own
    // output (`raw`: logs, attach), as docker's do.
    const text = (item: unknown, whole: boolean) =>
      view
        ? view(raw ? item : render.escapeStrings(item), colors!)
        : toJsonText(item, whole && process.stdout.isTTY && !options.watch ? 2 : undefined);
    const warn = (item: unknown) =>
      view &&
      hooks
        .warnings?.(item)
        .forEach((line) => process.stderr.write(`docklens: ${render.escapeControls(line)}\n`));
    /** A whole result, after `clear`; the error it carries is thrown once it is printed. */
    const print = async (result: unknown, clear = "") => {
      const error = await hooks.failure?.(result, coreOptions);
      // A whole result that renders nothing (an empty log) prints nothing; nor does a table of
      // clusters of which none answered: its header would read as an empty answer.
      const output = error?.nothingAnswered && view ? "" : text(result, true);
      const shown = output || (view && !error?.nothingAnswered && blank?.(result));
      process.stdout.write(shown ? `${clear}${output}\n` : clear);
      if (!error?.alone) warn(result);
      // An error about an input field (`filter: …`) names it, for inFlags to say its flag.
      if (error)
        throw new DocklensError(error.code, error.message, {
          param: /^(\w+): /.exec(error.message)?.[1],
        });
      process.exitCode = hooks.exitCode?.(result) ?? process.exitCode;
    };
    if (options.watch) {
      process.once("SIGINT", stop).once("SIGTERM", stop);
      return await watch(options.watch, controller.signal, async () => {
        const result = await query(args, options, coreOptions, input);
        // Ctrl-C came during the round: its engines answered "cancelled", which is not their state.
        if (controller.signal.aborted) return;
        // On a terminal each answer replaces the last, as `watch` does; in a pipe they follow one another.
        await print(result, view && process.stdout.isTTY ? "\u001b[H\u001b[2J" : "");
      });
    }
    const result = await query(args, options, coreOptions, input);
    if (!isStream(result)) return await print(result);
    process.once("SIGINT", stop).once("SIGTERM", stop);
    for await (const item of result) {
      if (view && hooks.aside?.(item)) process.stderr.write(`docklens: ${text(item, false)}\n`);
      else process.stdout.write(`${text(item, false)}\n`);
    }
  } finally {
    process.off("SIGINT", stop).off("SIGTERM", stop);
    await opened.close();
  }
}

/**
 * Run `tick` every `seconds` (counted from the end of the last one, so a slow fan-out never
 * overlaps the next) until `signal` aborts; the engine connections stay open between ticks. An
 * engine that fails a later tick says why on stderr and the watch goes on, as `watch docker ps`
 * does (it may come back); anything else, or any failure of the first tick, ends the command
 * with its error and exit code (a bad name or filter does not get better by waiting).
 */
async function watch(
  seconds: number | true,
  signal: AbortSignal,
  tick: () => Promise<void>,
): Promise<void> {
  const interval = (seconds === true ? 2 : seconds) * 1000;
  for (let first = true; !signal.aborted; first = false) {
    try {
      await tick();
    } catch (error) {
      if (signal.aborted) break;
      if (first || !/^ENGINE_/.test((error as { code?: string }).code ?? "")) throw error;
      process.stderr.write(`docklens: ${(error as Error).message}\n`);
    }
    await sleep(interval, undefined, { signal }).catch(() => {});
  }
}

/**
 * Whether a command is about every cluster (`ps` alone, `clusters`, `config`): only those warn of
 * what the config load skipped; naming a skipped context says why it is not a cluster.
 */
function targetsAll(spec: AnyCommandSpec, args: unknown[]): boolean {
  const first = spec.args?.[0]?.[0];
  return !/^[<[]cluster/.test(first ?? "") || args[0] === undefined || (args[0] as []).length === 0;
}

/** What the config load skipped (a docker context docklens cannot use): one line each on stderr. */
function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`docklens: warning: ${warning}\n`);
}

function isStream<T>(value: T | AsyncGenerator<T>): value is AsyncGenerator<T> {
  return typeof (value as AsyncGenerator<T> | undefined)?.[Symbol.asyncIterator] === "function";
}
