import type { ClusterRef } from "../engine/across-clusters.ts";
import { DocklensError, isDocklensError } from "../errors.ts";
import type { OutputLine } from "./container-output.ts";
import { compileGrep } from "./grep.ts";
import { LOGS_DEFAULTS, MAX_LOG_BYTES, readContainerLogs, type LogsQuery } from "./logs.ts";
import { compareTimes, timeKey } from "./reorder.ts";
import {
  selectContainers,
  type SelectContainersOptions,
  type SelectedContainer,
  type SelectionError,
} from "./selection.ts";

/**
 * A line of merged logs (docs/http-interface.md, "GET /logs"): the container's line, tagged with
 * its cluster and container; `time` is the engine's stamp (null only if an engine sent none).
 */
export type MergedLogLine = OutputLine & {
  cluster: ClusterRef;
  container: { id: string; name: string };
};

/** What to read of each container's logs, and the pattern lines must match. */
export interface MergedLogsQuery extends Omit<LogsQuery, "timestamps"> {
  /** A regular expression in RE2's syntax (see compileGrep). */
  grep?: string;
}

/** Options of {@link readMergedLogs} and {@link followMergedLogs}: the selection and the query. */
export interface MergedLogsOptions extends Omit<SelectContainersOptions, "running"> {
  query?: Partial<MergedLogsQuery>;
  /** The most one unfollowed read returns, in bytes, shared among the containers. Default 16 MiB. */
  maxBytes?: number;
}

/** How many containers a selection matched, and how many of them are read (`newest` may cut it). */
export interface SelectionCount {
  matched: number;
  containers: number;
}

/** Body of `GET /logs` without `follow`. */
export interface ReadMergedLogsResult {
  /** In time order. */
  lines: MergedLogLine[];
  /** Clusters that could not be asked, and containers whose logs could not be read. */
  errors: SelectionError[];
  /** With `newest`: how many matched and how many were read. */
  selection?: SelectionCount;
}

/** What merged logs take when a field is not given: those of one container's logs. */
export const MERGED_LOGS_DEFAULTS: MergedLogsQuery = (({ timestamps: _, ...rest }) => rest)(
  LOGS_DEFAULTS,
);

/**
 * The lines of every container of the selection (see selectContainers; stopped ones too), `tail`
 * of each, in time order. The containers share one bound (`maxBytes`) evenly, as one container's
 * read is bounded; more is `INVALID_QUERY`. A cluster that fails, or a container whose logs
 * cannot be read, is an `errors` entry and the others are still read; a container removed since
 * it was listed is left out.
 * @example
 * ```ts
 * const { lines } = await readMergedLogs({ fleet, project: "shop", query: { tail: 20, grep: "error" } });
 * for (const line of lines) console.log(`${line.cluster.name}/${line.container.name} | ${line.text}`);
 * ```
 */
export async function readMergedLogs(options: MergedLogsOptions): Promise<ReadMergedLogsResult> {
  const query = { ...MERGED_LOGS_DEFAULTS, ...options.query, follow: false };
  const matches = query.grep === undefined ? undefined : await compileGrep(query.grep);
  const { containers, errors, matched } = await selectContainers(options);
  const share = Math.floor((options.maxBytes ?? MAX_LOG_BYTES) / Math.max(1, containers.length));
  const read = await Promise.all(
    containers.map(async (container) => {
      try {
        const { lines } = await readContainerLogs(containerRef(container), {
          ...options,
          query: { ...query, timestamps: true },
          maxBytes: share,
        });
        return lines
          .filter((line) => !matches || matches(line.text))
          .map((line) => tagged(container, line));
      } catch (error) {
        if (isDocklensError(error) && error.code === "CONTAINER_NOT_FOUND") return [];
        if (isDocklensError(error) && error.code === "INVALID_QUERY") throw tooMuch(error, share);
        errors.push({
          cluster: container.cluster,
          container: { id: container.id, name: container.name },
          error: (error as DocklensError).toJSON(),
        });
        return [];
      }
    }),
  );
  const lines = read.flat();
  const keys = new Map(lines.map((line) => [line, timeKey(line.time)]));
  // A stable sort: lines of one container with equal times keep the engine's order.
  lines.sort((a, b) => compareTimes(keys.get(a)!, keys.get(b)!));
  return {
    lines,
    errors,
    ...(options.newest ? { selection: { matched, containers: containers.length } } : {}),
  };
}

/** A container of a selection as the one-container operations name it: cluster id and full id. */
export function containerRef(container: SelectedContainer): { cluster: string; name: string } {
  return { cluster: String(container.cluster.id), name: container.id };
}

/** A container's line with its cluster and container. */
export function tagged(container: SelectedContainer, line: OutputLine): MergedLogLine {
  return {
    cluster: container.cluster,
    container: { id: container.id, name: container.name },
    ...line,
  };
}

function tooMuch(error: DocklensError, share: number): DocklensError {
  return new DocklensError(
    "INVALID_QUERY",
    `${error.message.replace(/: ask for fewer.*$/, "")} (each container's share of the bound, ` +
      `${share} bytes): ask for fewer (tail, since, until), narrow the selection, or follow`,
    { cause: error },
  );
}
