// `docklens tui` as an entry of the command table: the screen itself loads only when it runs.
import { COMMON_OPTIONS, DATA_DIR_OPTION, defineCommand } from "../operations/parts.ts";

export const TUI_COMMAND = defineCommand({
  name: ["tui"],
  description: "the fleet's containers in a full-screen terminal view, live and read-only",
  bare: true,
  args: [["[cluster...]", "cluster names or ids (default: every cluster)"]],
  options: [COMMON_OPTIONS[0]!, DATA_DIR_OPTION],
  examples: [
    ["docklens tui", "every container of every cluster; ? lists the keys"],
    ["docklens tui prod staging --config ops.yaml"],
  ],
  action: async (args, options) =>
    (await import("./tui.ts")).tui((args[0] as string[] | undefined) ?? [], options),
});
