// The commands that look at every cluster at once (or those named), as table entries.
import type { ListAllContainersResult } from "../core/containers/containers.ts";
import type { ListAllImagesResult, ListImagesResult } from "../core/objects/images.ts";
import {
  acrossHooks,
  CLUSTERS_ARG,
  defineCommand,
  filterOption,
  WATCH_OPTION,
  type ListCommandOptions,
} from "./define.ts";

interface PsOptions extends ListCommandOptions {
  all?: boolean;
  quiet?: boolean;
  trunc: boolean;
  format?: string;
  group?: boolean;
}

export const ACROSS_COMMANDS = [
  defineCommand<PsOptions, ListAllContainersResult, [string[]]>({
    name: ["ps"],
    description: "list the containers of every cluster, like docker ps",
    args: [CLUSTERS_ARG],
    options: [
      filterOption("containers"),
      WATCH_OPTION,
      {
        flags: "-a, --all",
        description: "stopped containers too (the JSON body always holds both lists)",
      },
      { flags: "-q, --quiet", description: "only cluster/id, a line each" },
      { flags: "--no-trunc", description: "ids and commands whole" },
      {
        flags: "--format <template>",
        description:
          "a line per container from a template: {{.Cluster}} {{.ID}} {{.Names}} {{.Image}} " +
          "{{.Status}} {{.State}} {{.Ports}} {{.Project}}",
      },
      {
        flags: "--group",
        description: "one line per compose project or stack: services, running/total, clusters",
      },
    ],
    examples: [
      ["docklens ps", "running containers of every cluster"],
      ["docklens ps -a prod staging", "all containers of two clusters"],
      ["docklens ps --filter health=unhealthy", "what is unhealthy anywhere"],
      ["docklens ps --filter name=web -q", "where web runs, as cluster/id"],
      ["docklens ps -a --group", "compose projects across clusters"],
      ["docklens ps --watch 5"],
    ],
    check: (_, options) =>
      options.group && options.json
        ? "--group is a table; with --json, group the containers with jq (examples/jq.sh)"
        : undefined,
    call: (core, [clusters], options, o) =>
      core.listAllContainers({
        ...o,
        clusters,
        filters: core.parseFilters("containers", options.filter ?? []),
      }),
    view: (render, options) => (result, colors) =>
      options.group
        ? render.projectsTable(result.containers, colors)
        : render.psTable(options.all ? result.containers : result.running, colors, {
            full: !options.trunc,
            ...(options.quiet ? { quiet: true } : {}),
            ...(options.format ? { format: options.format } : {}),
          }),
    hooks: ([clusters], _, core) => acrossHooks(clusters, core),
  }),
  defineCommand<ListCommandOptions, ListImagesResult | ListAllImagesResult, [string[]]>({
    name: ["images"],
    description: "list the images of a cluster, or of every cluster, like docker images",
    args: [CLUSTERS_ARG],
    options: [filterOption("images")],
    examples: [
      ["docklens images local"],
      ["docklens images", "every cluster's, with a CLUSTER column"],
      ["docklens images --filter dangling=true"],
    ],
    call: (core, [clusters], options, o) => {
      const filters = core.parseFilters("images", options.filter ?? []);
      // One cluster mirrors /list/:cluster/images; none or several, /list/images.
      return clusters.length === 1
        ? core.listImages(clusters[0]!, { ...o, filters })
        : core.listAllImages({ ...o, clusters, filters });
    },
    view: (render) => (result, colors) => render.imagesTable(result.images, colors),
    hooks: ([clusters], _, core) => acrossHooks(clusters, core),
  }),
  defineCommand({
    name: ["events"],
    description: "the engines' events, merged, until Ctrl-C, like docker events",
    args: [CLUSTERS_ARG],
    options: [
      filterOption("events"),
      {
        flags: "--since <time>",
        description:
          "events since this time: Unix seconds, a date and time, or a duration like 10m",
      },
      { flags: "--until <time>", description: "events up to this time, then stop; same forms" },
    ],
    examples: [
      ["docklens events", "every engine's events, as they come"],
      ["docklens events prod --since 1h --filter type=container"],
      ["docklens events --json | jq -c 'select(.Action == \"die\")'"],
    ],
    call: (
      core,
      [clusters]: [string[]],
      options: ListCommandOptions & { since?: string; until?: string },
      o,
    ) =>
      core.streamEvents({
        ...o,
        clusters,
        filters: core.parseFilters("events", options.filter ?? []),
        ...(options.since !== undefined ? { since: core.parseTime("since", options.since) } : {}),
        ...(options.until !== undefined ? { until: core.parseTime("until", options.until) } : {}),
      }),
    view: (render) => render.eventLine,
  }),
  defineCommand({
    name: ["drift"],
    description:
      "image references that mean different images on different clusters, and engine versions",
    args: [CLUSTERS_ARG],
    examples: [
      ["docklens drift"],
      [
        "docklens drift --json | jq -r '.images[] | select(.drift) | .reference'",
        "references that drifted",
      ],
    ],
    call: (core, [clusters]: [string[]], _, o) => core.listDrift({ ...o, clusters }),
    view: (render) => render.driftView,
    hooks: ([clusters], _, core) => acrossHooks(clusters, core),
  }),
];
