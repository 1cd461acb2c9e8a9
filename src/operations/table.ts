// The whole table of operations: the server's routes and the CLI's commands are made of it, in
// its order. Here too the two that are about the table and the config rather than an engine: the
// index of the detail routes, and `docklens config`.
import { ACROSS_OPERATIONS } from "./across.ts";
import { alerts } from "./alerts.ts";
import type { AnyCommandSpec } from "./command.ts";
import { DETAIL_COMMANDS, DETAIL_OPERATIONS } from "./details.ts";
import { HISTORY_OPERATIONS } from "./history.ts";
import { inspect } from "./inspect.ts";
import { LIST_OPERATIONS } from "./lists.ts";
import { commandsOf, routesOf, type Operation } from "./operation.ts";
import { clusterDiskUsage, SELECTION_OPERATIONS } from "./selection.ts";
import { info, version } from "./system.ts";
import { defineCommand } from "./parts.ts";

const config: Operation = {
  command: defineCommand({
    name: ["config"],
    description:
      "show the config file used (or why none), where each cluster came from, and the tokens' scopes",
    examples: [
      ["docklens config"],
      ["docklens config --json | jq '.clusters[] | {name, source, context}'"],
    ],
    call: async (_, __, coreOptions) =>
      (await import("../core/clusters/clusters.ts")).describeConfig(coreOptions),
  }),
};

/** The body of `/detail` and of `docklens detail`: the routes below it, in the table's order. */
export async function detailIndex() {
  const paths = routesOf(OPERATIONS).map((route) => route.path);
  return (await import("../core/detail-routes.ts")).listDetailRoutes(
    paths.filter((path) => path.startsWith("/detail/")),
  );
}

const index: Operation = {
  route: {
    path: "/detail",
    summary: "The index of detail routes",
    schema: "RouteIndex",
    errors: [],
    run: detailIndex,
  },
  command: defineCommand({
    name: ["detail"],
    description: "inspect one item; alone, list the detail commands (--json: the detail routes)",
    examples: [
      ["docklens detail", "the detail commands"],
      ["docklens detail cluster local"],
      ["docklens detail container local web --json"],
      ["docklens detail image local local/busybox:1"],
    ],
    call: detailIndex,
  }),
};

/** Every operation, in the order of the route table (docs/http-interface.md, "Routes"). */
export const OPERATIONS: Operation[] = [
  ...LIST_OPERATIONS,
  clusterDiskUsage,
  ...ACROSS_OPERATIONS,
  ...SELECTION_OPERATIONS,
  config,
  index,
  ...DETAIL_OPERATIONS,
  inspect,
  alerts,
  info,
  version,
  ...HISTORY_OPERATIONS,
];

/** The commands of the operations, in the order the help lists them. */
export const OPERATION_COMMANDS: AnyCommandSpec[] = [
  ...commandsOf([...LIST_OPERATIONS, ...ACROSS_OPERATIONS, ...SELECTION_OPERATIONS, config, index]),
  ...DETAIL_COMMANDS,
  ...commandsOf([inspect, alerts, info, version, ...HISTORY_OPERATIONS]),
];
