// What an operation entry is: a route of the HTTP interface and the CLI command that mirrors it,
// declared once. The server's route table, the OpenAPI document, the /detail index and the
// CLI's commands (with the flag each query parameter is) are all made from the entries.
import type { AnyCommandSpec } from "./command.ts";
import type { RouteSpec } from "./route.ts";

/** One operation: its route, its command, or (mostly) both. */
export interface Operation {
  /** The route; none for a command of the CLI alone (`config`, `detail cluster`'s parent). */
  route?: RouteSpec;
  /** The command; none for a route the CLI reaches by another's (`images` one cluster's). */
  command?: AnyCommandSpec;
}

/** The routes of `operations`, in their order. */
export function routesOf(operations: readonly Operation[]): RouteSpec[] {
  return operations.flatMap((operation) => (operation.route ? [operation.route] : []));
}

/** The commands of `operations`, in their order. */
export function commandsOf(operations: readonly Operation[]): AnyCommandSpec[] {
  return operations.flatMap((operation) => (operation.command ? [operation.command] : []));
}
