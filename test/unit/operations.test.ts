// The table of operations (src/operations/table.ts), of which the route table and the CLI's
// commands are made: the two orders it gives them hold the same entries.
import { describe, expect, it } from "vitest";
import { commandsOf } from "../../src/operations/operation.ts";
import { OPERATION_COMMANDS, OPERATIONS } from "../../src/operations/table.ts";

describe("the table of operations", () => {
  it("gives the help every operation's command, each once", () => {
    const commands = commandsOf(OPERATIONS);
    expect(OPERATION_COMMANDS).toHaveLength(commands.length);
    expect(new Set(OPERATION_COMMANDS)).toEqual(new Set(commands));
  });

  it("names each command and each route once", () => {
    const names = OPERATION_COMMANDS.map((command) => command.name.join(" "));
    expect(new Set(names).size).toBe(names.length);
    const paths = OPERATIONS.flatMap((operation) => operation.route?.path ?? []);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
