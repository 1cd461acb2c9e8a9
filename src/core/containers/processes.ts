import { findContainer, type ContainerRef } from "./containers.ts";
import { callEngine, expectBody } from "../engine/engine.ts";
import { DocklensError, invalidInput } from "../errors.ts";
import type { CoreOptions } from "../engine/fleet.ts";
import { printsEnvironment } from "./ps-args.ts";
import { redactText } from "./secrets.ts";

/** Body of `.../process`: the engine's top. */
export interface ListProcessesResult {
  Titles: string[];
  Processes: string[][];
}

/** Options of {@link listProcesses}. */
export interface ListProcessesOptions extends CoreOptions {
  /** Arguments of `ps` on the engine's host; default `-ef`. */
  psArgs?: string;
  /**
   * Show what looks like a secret (docs/http-interface.md, "Secrets"); defaults to the config's
   * `showSecrets`. Without it, ps options that print the environment are refused and
   * `NAME=value` words whose names look secret read `<redacted>`.
   */
  showSecrets?: boolean;
}

/** ps options and field lists (`-ef`, `aux`, `-o pid,comm`); nothing a shell would read. */
export const PS_ARGS = /^[a-zA-Z0-9 ,=_-]{1,64}$/;

const DEFAULT_PS_ARGS = "-ef";

/**
 * Docker's 500 when its ps refused the arguments (`ps: error: unsupported option`, in older
 * engines `Error running ps`) or ran without the PID column docker needs: the caller's input.
 */
const PS_REFUSED = /^(error running )?ps\b|PID field/i;

/**
 * The processes of a running container; a stopped one is `CONTAINER_NOT_RUNNING`
 * (docs/http-interface.md, "GET /detail/:cluster/container/:containerName/process"). Secrets
 * stay hidden unless shown: ps options that print the environment are `INVALID_QUERY`, and
 * `NAME=value` words whose names look secret read `<redacted>`.
 * @example
 * ```ts
 * const { Titles, Processes } = await listProcesses({ cluster: "prod", name: "web" }, { fleet, psArgs: "aux" });
 * ```
 */
export async function listProcesses(
  input: ContainerRef,
  options: ListProcessesOptions,
): Promise<ListProcessesResult> {
  const psArgs = options.psArgs ?? DEFAULT_PS_ARGS;
  if (!PS_ARGS.test(psArgs))
    invalidInput(
      "ps_args",
      `expected ps options such as -ef or "-o pid,comm", got ${JSON.stringify(psArgs.slice(0, 40))}`,
    );
  const showSecrets = options.showSecrets ?? options.fleet.config.showSecrets;
  if (!showSecrets && printsEnvironment(psArgs))
    invalidInput(
      "ps_args",
      `${JSON.stringify(psArgs)} would print each process's environment (ps's BSD option e), ` +
        "where secrets are; leave e out, or show secrets (showSecrets)",
    );
  const target = await findContainer(input, { ...options, running: true });
  const refused = (words: string) =>
    `ps_args: the engine's ps cannot run ${JSON.stringify(psArgs)}: ${words}`;
  const body = await callEngine(
    target.cluster,
    (engine, signal) =>
      engine.get(`/containers/${target.id}/top`, signal, { query: { ps_args: psArgs } }),
    {
      ...options,
      statuses: {
        ...target.statuses,
        500: { code: "INVALID_QUERY", param: "ps_args", when: PS_REFUSED, message: refused },
      },
    },
  );
  // Podman (4.x) answers 200 with an empty body when the container's ps fails on the arguments
  // given; with the default ones, something else failed.
  if (body === "" && psArgs !== DEFAULT_PS_ARGS)
    throw new DocklensError("INVALID_QUERY", refused("it answered nothing"), { param: "ps_args" });
  const top = expectBody<ListProcessesResult>(body, "object", target.cluster);
  const processes = splitColumns({ Titles: top.Titles ?? [], Processes: top.Processes ?? [] });
  return showSecrets
    ? processes
    : { ...processes, Processes: processes.Processes.map((row) => row.map(redactText)) };
}

/**
 * Podman answers with the lines of `ps` unsplit: one title string, and each process one string.
 * Split them into Docker's columns: by runs of spaces, the last column (the command) taking the
 * rest of the line, spaces and all.
 */
export function splitColumns(top: ListProcessesResult): ListProcessesResult {
  const [title] = top.Titles;
  if (top.Titles.length !== 1 || !title || !/\S\s+\S/.test(title.trim())) return top;
  const titles = title.trim().split(/\s+/);
  const split = (line: string) => {
    const fields = line.trim().split(/\s+/);
    return [...fields.slice(0, titles.length - 1), fields.slice(titles.length - 1).join(" ")];
  };
  return {
    Titles: titles,
    Processes: top.Processes.map((row) => (row.length === 1 ? split(row[0]!) : row)),
  };
}
