// How the CLI prints each operation's result for people, keyed by operation id (its command's
// words: `ps`, `detail container`): the operations declare what is asked and answered, this
// table how a terminal shows it. Loaded by run.ts only; the views' code (render/) loads only
// without --json.
import type { ChalkInstance } from "chalk";
import type {
  ClusterContainerItem,
  ListAllContainersResult,
  ListContainersResult,
} from "../core/containers/containers.ts";
import type { ListNetworksResult } from "../core/objects/networks.ts";
import type { ListVolumesResult } from "../core/objects/volumes.ts";
import type { ListAllImagesResult, ListImagesResult } from "../core/objects/images.ts";
import type { AnyCommandSpec } from "../operations/command.ts";
import type { StatsResult } from "../operations/container-stats.ts";
import type { LogsResult } from "../operations/container-streams.ts";
import { DETAIL_COMMANDS } from "../operations/details.ts";
import type { InspectResult } from "../operations/inspect.ts";
import type { ClustersTable } from "../operations/lists.ts";

/** What renders results for people (render/); loaded only without `--json`. */
export type Render = typeof import("./render/index.ts");

/** How a view prints one result (a method's type: its parameter is compared both ways). */
export type View<R> = { print(this: void, result: R, colors: ChalkInstance): string }["print"];

/** The view of an operation's result. */
export interface ViewSpec<R, O> {
  /**
   * The view gets the data as it came: it prints a container's output as it comes (logs,
   * attach), control characters and all, as docker's does, or escapes what it prints itself
   * (inspect's JSON); every other view gets engine data with them escaped (render/escape.ts).
   */
  raw?: boolean;
  /**
   * Whether an empty text of this result is an empty line, not nothing: `inspect -f` of one body
   * whose template printed nothing prints a newline, as docker's does.
   */
  blank?(this: void, result: unknown): boolean;
  /** The view, made once per run (stats keeps what it drew last), of one result. */
  view(this: void, render: Render, options: O): View<R>;
}

/** An entry of the table, its types forgotten: run.ts calls every view the same way. */
type AnyView = ViewSpec<unknown, object>;
const view = <R, O extends object = object>(spec: ViewSpec<R, O>): AnyView => spec;

interface Format {
  format?: string;
  size?: boolean;
}

/** A selection's lines and bodies carry their cluster, or (a body) its errors. */
const isSelection = (result: LogsResult) => "cluster" in result || "errors" in result;

/** Each command as it is typed, `docklens detail container <cluster> <container>`, and what it does. */
function usageLines(commands: readonly AnyCommandSpec[]): string {
  const lines = commands.map((spec) => [
    ["docklens", ...spec.name, ...(spec.args ?? []).map(([name]) => name)].join(" "),
    spec.description,
  ]);
  const width = Math.max(...lines.map(([usage]) => usage!.length));
  return lines.map(([usage, what]) => `${usage!.padEnd(width)}   ${what}`).join("\n");
}

/** The view of each operation's command, by operation id. */
export const VIEWS: Record<string, AnyView> = {
  clusters: view({
    view: (render) => (result: ClustersTable, colors) =>
      render.clustersTable(result.clusters, colors, result.unhealthy),
  }),
  containers: view({
    view:
      (render, options: Format & { running?: boolean }) => (result: ListContainersResult, colors) =>
        render.containersTable(options.running ? result.running : result.containers, colors, {
          ...(options.format === undefined ? {} : { format: options.format }),
          ...(options.size ? { size: true } : {}),
        }),
  }),
  networks: view({
    view: (render) => (result: ListNetworksResult, colors) =>
      render.networksTable(result.networks, colors),
  }),
  volumes: view({
    view: (render) => (result: ListVolumesResult, colors) =>
      render.volumesTable(result.Volumes, colors),
  }),
  ps: view({
    view:
      (render, options: Format & { group?: boolean; trunc?: boolean; quiet?: boolean }) =>
      (
        result: ListAllContainersResult & {
          shown?: ClusterContainerItem[];
          oneCluster?: boolean;
        },
        colors,
      ) =>
        options.group
          ? render.projectsTable(result.containers, colors)
          : render.psTable("shown" in result ? result.shown! : result.containers, colors, {
              full: !options.trunc,
              ...(options.quiet ? { quiet: true } : {}),
              ...("oneCluster" in result && result.oneCluster ? { oneCluster: true } : {}),
              ...(options.format ? { format: options.format } : {}),
              ...(options.size ? { size: true } : {}),
            }),
  }),
  images: view({
    view:
      (render, options: Format & { quiet?: boolean; digests?: boolean }) =>
      (result: ListImagesResult | (ListAllImagesResult & { oneCluster?: boolean }), colors) => {
        // One cluster named mirrors its route (no `errors`); the config's only one, /list/images.
        const oneCluster = !("errors" in result) || Boolean(result.oneCluster);
        return render.imagesTable(result.images, colors, {
          // docker images -q prints {{.ID}} a row; across clusters each says its cluster.
          ...(options.quiet
            ? { format: oneCluster ? "{{.ID}}" : "{{.Cluster}}/{{.ID}}" }
            : options.format === undefined
              ? {}
              : { format: options.format }),
          ...(options.digests ? { digests: true } : {}),
          oneCluster,
        });
      },
  }),
  events: view({
    view: (render, options: Format) => render.createEventView(options.format),
  }),
  drift: view({ view: (render) => render.driftView }),
  df: view({
    view: (render, options: { verbose?: boolean }) =>
      render.diskUsageView(Boolean(options.verbose)),
  }),
  config: view({ view: (render) => render.configView }),
  alerts: view({ view: (render) => render.alertsTable }),
  history: view({ view: (render) => render.historyTable }),
  "history events": view({ view: (render) => render.historyEventsView }),
  "history logs": view({ view: (render) => render.historyLogsView }),
  "history stats": view({ view: (render) => render.historyStatsTable }),
  // People type commands: the body (`--json`) is the route index, the table the commands.
  detail: view({ view: () => () => usageLines(DETAIL_COMMANDS) }),
  "detail cluster": view({ view: (render) => render.clusterDetail }),
  "detail container": view({ view: (render) => render.containerDetail }),
  "detail image": view({ view: (render) => render.imageDetail }),
  "detail volume": view({ view: (render) => render.volumeDetail }),
  "detail network": view({ view: (render) => render.networkDetail }),
  logs: view({
    raw: true,
    view: (render, options: { timestamps?: boolean; since?: string; until?: string }) => {
      // A window reaches into history, where a name was several containers: each line its id.
      const ids = options.since !== undefined || options.until !== undefined;
      const merged = render.createMergedLogsView(Boolean(options.timestamps), ids);
      return (result: LogsResult, colors) =>
        "note" in result && !("lines" in result)
          ? result.note
          : isSelection(result)
            ? merged(result, colors)
            : render.logsView(result, colors);
    },
  }),
  stats: view({
    view: (render, options: { stream?: boolean }) => {
      const one = render.createStatsView(Boolean(options.stream));
      const all = render.createAllStatsView(options.stream !== false);
      return (result: StatsResult, colors) =>
        "series" in result
          ? render.historyStatsRows(result, colors)
          : "stats" in result
            ? all(result, colors)
            : one(result, colors);
    },
  }),
  top: view({ view: (render) => render.processesTable }),
  info: view({ view: (render, options: Format) => render.createInfoView(options.format) }),
  version: view({ view: (render, options: Format) => render.createVersionView(options.format) }),
  attach: view({ raw: true, view: (render) => render.outputLine }),
  inspect: view({
    // Its view writes JSON, or a template's output, and escapes what it prints itself.
    raw: true,
    blank: (result) => (result as InspectResult).length > 0,
    view: (render, options: { format?: string }) => (result: InspectResult) =>
      render.inspectView(result, options.format),
  }),
};

/** The view of a command's operation. */
export const viewOf = (spec: AnyCommandSpec): AnyView => VIEWS[spec.name.join(" ")]!;
