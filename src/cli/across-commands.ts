import type { Command } from "commander";
import type { ListAllImagesResult, ListImagesResult } from "../core/images.ts";
import {
  acrossHooks,
  common,
  examples,
  FILTER_HELP,
  filterOption,
  run,
  watchOption,
  type ListCommandOptions,
} from "./define.ts";

interface PsOptions extends ListCommandOptions {
  all?: boolean;
  quiet?: boolean;
  trunc: boolean;
  format?: string;
  group?: boolean;
}

/** `ps`, `images` and `drift`: the commands that look at every cluster at once (or those named). */
export function addAcrossCommands(program: Command): void {
  const clustersArgument = [
    "[cluster...]",
    "cluster names or ids; every cluster when none",
  ] as const;

  watchOption(
    filterOption(
      common(
        program
          .command("ps")
          .description("list the containers of every cluster, like docker ps")
          .argument(...clustersArgument),
      ),
      FILTER_HELP.containers,
    ),
  )
    .option("-a, --all", "stopped containers too (the JSON body always holds both lists)")
    .option("-q, --quiet", "only cluster/id, a line each")
    .option("--no-trunc", "ids and commands whole")
    .option(
      "--format <template>",
      "a line per container from a template: {{.Cluster}} {{.ID}} {{.Names}} {{.Image}} " +
        "{{.Status}} {{.State}} {{.Ports}} {{.Project}}",
    )
    .option("--group", "one line per compose project or stack: services, running/total, clusters")
    .addHelpText(
      "after",
      examples([
        ["docklens ps", "running containers of every cluster"],
        ["docklens ps -a prod staging", "all containers of two clusters"],
        ["docklens ps --filter health=unhealthy", "what is unhealthy anywhere"],
        ["docklens ps --filter name=web -q", "where web runs, as cluster/id"],
        ["docklens ps -a --group", "compose projects across clusters"],
        ["docklens ps --watch 5"],
      ]),
    )
    .action((clusters: string[], options: PsOptions, command: Command) => {
      if (options.group && options.json)
        command.error(
          "error: --group is a table; with --json, group the containers with jq (examples/jq.sh)",
          { exitCode: 2 },
        );
      return run(
        options,
        (lib, o) =>
          lib.listAllContainers({
            ...o,
            clusters,
            filters: lib.parseFilters("containers", options.filter ?? []),
          }),
        (v, r, colors) =>
          options.group
            ? v.projectsTable(r.containers, colors)
            : v.psTable(options.all ? r.containers : r.running, colors, {
                full: !options.trunc,
                ...(options.quiet ? { quiet: true } : {}),
                ...(options.format ? { format: options.format } : {}),
              }),
        acrossHooks(clusters),
      );
    });

  filterOption(
    common(
      program
        .command("images")
        .description("list the images of a cluster, or of every cluster, like docker images")
        .argument(...clustersArgument),
    ),
    FILTER_HELP.images,
  )
    .addHelpText(
      "after",
      examples([
        ["docklens images local"],
        ["docklens images", "every cluster's, with a CLUSTER column"],
        ["docklens images --filter dangling=true"],
      ]),
    )
    .action((clusters: string[], options: ListCommandOptions) =>
      run<ListImagesResult | ListAllImagesResult>(
        options,
        (lib, o) => {
          const filters = lib.parseFilters("images", options.filter ?? []);
          // One cluster mirrors /list/:cluster/images; none or several, /list/images.
          return clusters.length === 1
            ? lib.listImages(clusters[0]!, { ...o, filters })
            : lib.listAllImages({ ...o, clusters, filters });
        },
        (v, r, colors) => v.imagesTable(r.images, colors),
        acrossHooks(clusters),
      ),
    );

  filterOption(
    common(
      program
        .command("events")
        .description("the engines' events, merged, until Ctrl-C, like docker events")
        .argument(...clustersArgument),
    ),
    FILTER_HELP.events,
  )
    .option(
      "--since <time>",
      "events since this time: Unix seconds, a date and time, or a duration like 10m",
    )
    .option("--until <time>", "events up to this time, then stop; same forms")
    .addHelpText(
      "after",
      examples([
        ["docklens events", "every engine's events, as they come"],
        ["docklens events prod --since 1h --filter type=container"],
        ["docklens events --json | jq -c 'select(.Action == \"die\")'"],
      ]),
    )
    .action(
      (clusters: string[], options: ListCommandOptions & { since?: string; until?: string }) =>
        run(
          options,
          (lib, o) =>
            lib.streamEvents({
              ...o,
              clusters,
              filters: lib.parseFilters("events", options.filter ?? []),
              ...(options.since !== undefined
                ? { since: lib.parseTime("since", options.since) }
                : {}),
              ...(options.until !== undefined
                ? { until: lib.parseTime("until", options.until) }
                : {}),
            }),
          (v, r, colors) => v.eventLine(r, colors),
        ),
    );

  common(
    program
      .command("drift")
      .description(
        "image references that mean different images on different clusters, and engine versions",
      )
      .argument(...clustersArgument),
  )
    .addHelpText(
      "after",
      examples([
        ["docklens drift"],
        [
          "docklens drift --json | jq -r '.images[] | select(.drift) | .reference'",
          "references that drifted",
        ],
      ]),
    )
    .action((clusters: string[], options: ListCommandOptions) =>
      run(
        options,
        (lib, o) => lib.listDrift({ ...o, clusters }),
        (v, r, colors) => v.driftView(r, colors),
        acrossHooks(clusters),
      ),
    );
}
