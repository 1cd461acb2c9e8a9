// The reference pages of the docs site that are made, not written: every CLI command (the
// commander program built from the operation table, its help exactly as `--help` prints it)
// and every HTTP route (the OpenAPI document `serve` sends, built from the same table). The
// unit test docs-reference.test.ts fails when the checked-in pages differ from these;
// `npm run docs:reference` writes them again.
import type { Command } from "commander";
import { toWebHandler } from "h3";
import { format, resolveConfig } from "prettier";
import { createProgram } from "../src/cli/main.ts";
import { createFleet } from "../src/core/engine/fleet.ts";
import { OPERATIONS } from "../src/operations/table.ts";
import { createApp } from "../src/server/app.ts";
import { slugOf } from "./slug.ts";

/** Where the pages go, from the repository's root, and what they hold. */
export type ReferencePages = Record<string, string>;

const NOTE = "<!-- Made by scripts/reference-pages.ts (npm run docs:reference): do not edit. -->";

/** The pages: `docs/reference/cli.md` and `docs/reference/routes.md`. */
export async function referencePages(): Promise<ReferencePages> {
  const pages: ReferencePages = {
    "docs/reference/cli.md": cliPage(),
    "docs/reference/routes.md": routesPage(await servedDocument()),
  };
  // As Prettier writes them, so that `npm run lint` finds them formatted.
  for (const [file, text] of Object.entries(pages)) {
    const options = await resolveConfig(file);
    pages[file] = await format(text, { ...options, filepath: file });
  }
  return pages;
}

/** The command words of each operation that has both, and the path of its route. */
function mirroredRoutes(): Map<string, string> {
  return new Map(
    OPERATIONS.flatMap((operation) =>
      operation.command && operation.route
        ? [[operation.command.name.join(" "), operation.route.path] as const]
        : [],
    ),
  );
}

/** `--help` of a command, at a fixed width and without colour, as a terminal would show it. */
function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({
    writeOut: (chunk) => (text += chunk),
    getOutHelpWidth: () => 100,
    getOutHasColors: () => false,
  });
  command.outputHelp();
  return text.trimEnd();
}

/** Each command under `parent`, depth first, with its words. */
function walk(parent: Command, words: string[] = []): Array<[string[], Command]> {
  return parent.commands.flatMap((command) => {
    const path = [...words, command.name()];
    return [[path, command] as [string[], Command], ...walk(command, path)];
  });
}

function cliPage(): string {
  const program = createProgram();
  const routes = mirroredRoutes();
  const sections = walk(program).map(([words, command]) => {
    const route = routes.get(words.join(" "));
    const mirrors = route
      ? `\n\nIts \`--json\` is the body of [\`GET ${route}\`](routes.md#${slugOf(`GET ${route}`)}).`
      : "";
    const help = "```text\n" + helpOf(command) + "\n```";
    return `## docklens ${words.join(" ")}\n\n${command.description()}${mirrors}\n\n${help}`;
  });
  return [
    NOTE,
    "# CLI commands",
    "Every command and its options, as `docklens <command> --help` prints them. " +
      "[The CLI](../guide/cli.md) explains what they share (clusters, `--json`, errors, exit codes).",
    "```text\n" + helpOf(program) + "\n```",
    ...sections,
  ].join("\n\n");
}

interface Parameter {
  name: string;
  in: string;
  description?: string;
}
interface Operation {
  summary: string;
  parameters: Parameter[];
  responses: Record<string, { description: string }>;
  security: unknown[];
}

/** The OpenAPI document as serve sends it with a token set, from the app itself. */
async function servedDocument(): Promise<Record<string, Record<string, Operation>>> {
  const fleet = createFleet({ clusters: [], showSecrets: false, source: null, warnings: [] });
  const handler = toWebHandler(createApp({ fleet, token: "reference", log: false }));
  const response = await handler(
    new Request("http://localhost/openapi.json", {
      headers: { authorization: "Bearer reference" },
    }),
  );
  const document = (await response.json()) as { paths: Record<string, Record<string, Operation>> };
  return document.paths;
}

/** A table cell: one line, its pipes escaped. */
const cell = (text = "") => text.replace(/\s+/g, " ").replaceAll("|", "\\|");

function routesPage(paths: Record<string, Record<string, Operation>>): string {
  const commands = new Map([...mirroredRoutes()].map(([words, path]) => [path, words]));
  const sections = Object.entries(paths).map(([openApiPath, item]) => {
    const path = openApiPath.replace(/\{(\w+)\}/g, ":$1");
    const get = item.get!;
    const params = get.parameters.filter((param) => param.in !== "header");
    const table = params.length
      ? [
          "| parameter | in | meaning |",
          "| --- | --- | --- |",
          ...params.map(
            (param) => `| \`${param.name}\` | ${param.in} | ${cell(param.description)} |`,
          ),
        ].join("\n")
      : "No parameters.";
    const errors = Object.entries(get.responses)
      .filter(([status]) => status !== "200")
      .map(
        ([status, { description }]) =>
          `${status} ${description
            .split(", ")
            .map((code) => `\`${code}\``)
            .join(", ")}`,
      )
      .join("; ");
    const command = commands.get(path);
    return [
      `## GET ${path}`,
      `${get.summary}.${get.security.length ? "" : " No token needed."}`,
      table,
      `Errors: ${errors}.`,
      ...(command
        ? [`CLI: [\`docklens ${command}\`](cli.md#${slugOf(`docklens ${command}`)}).`]
        : []),
      `In full: [the interface's "GET ${path}"](../http-interface.md#${slugOf(`GET ${path}`)}).`,
    ].join("\n\n");
  });
  return [
    NOTE,
    "# HTTP routes",
    "Every route `docklens serve` answers (`GET` and `HEAD`), from its OpenAPI document " +
      "(`GET /openapi.json`). [The HTTP interface](../http-interface.md) describes each body, " +
      "stream and error in full.",
    ...sections,
  ].join("\n\n");
}
