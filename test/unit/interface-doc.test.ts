import { readFileSync } from "node:fs";
import { toWebHandler } from "h3";
import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, statusOf } from "../../src/core/errors.ts";
import { createFleet } from "../../src/core/engine/fleet.ts";
import { createApp } from "../../src/server/app.ts";
import { detailIndex } from "../../src/operations/table.ts";
import { API_ROUTES } from "../../src/server/routes.ts";

/**
 * docs/http-interface.md against the OpenAPI document the server serves: the same routes, the
 * same query parameters per route, the error codes of each route and their statuses. The page
 * keeps fixed formats for this: a route table under "Routes" whose first cell is `GET <path>`
 * and third cell the query parameters; a `### GET <path>` section per route with a
 * `Query parameters:` table (or `Query parameters: none`) and an `Errors:` line; and a table
 * under "Error codes" whose first two cells are a code and its status.
 */

interface Operation {
  parameters: Array<{ name: string; in: string }>;
  responses: Record<string, { description: string }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { ErrorBody: { properties: { code: { enum: string[] } } } } };
}

const PAGE = readFileSync(new URL("../../docs/http-interface.md", import.meta.url), "utf8");
/** Codes every route may answer, which the page names once, not in each route's `Errors:` line. */
const COMMON = new Set(["UNAUTHORIZED", "METHOD_NOT_ALLOWED", "INVALID_QUERY"]);

/** `/list/:cluster/containers` as the OpenAPI document writes it: `/list/{cluster}/containers`. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
/** The names in backticks of a piece of text. */
const quoted = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
/** The cells of a table row `| a | b |`. */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
/** Table rows among `lines`, header and separator left out. */
const rows = (lines: readonly string[]) =>
  lines.filter((line) => line.startsWith("|") && !/^\|[\s|:-]+\|$/.test(line.trim())).slice(1);

/** Each heading of the page (outside code blocks) with its lines, up to the next heading of its level or above. */
function sections(markdown: string): Map<string, string[]> {
  const lines = markdown.split("\n");
  let fenced = false;
  const headings: Array<{ level: number; text: string; line: number }> = [];
  lines.forEach((line, index) => {
    if (line.startsWith("```")) fenced = !fenced;
    const match = fenced ? null : /^(#{1,6}) (.+?)\s*$/.exec(line);
    if (match) headings.push({ level: match[1]!.length, text: match[2]!, line: index });
  });
  const result = new Map<string, string[]>();
  headings.forEach((heading, index) => {
    const next = headings.slice(index + 1).find((other) => other.level <= heading.level);
    // Headings are cited by their text: two alike would make a citation ambiguous.
    if (result.has(heading.text))
      throw new Error(`docs/http-interface.md has the heading "${heading.text}" twice`);
    result.set(heading.text, lines.slice(heading.line + 1, next?.line ?? lines.length));
  });
  return result;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");

const page = sections(PAGE);
const section = (heading: string): string[] => {
  const lines = page.get(heading);
  if (!lines) throw new Error(`docs/http-interface.md has no section "${heading}"`);
  return lines;
};

/** The route table: path (in the page's notation) to the query parameters its third cell names. */
const routeTable = new Map(
  rows(section("Routes")).map((row) => {
    const [route = "", , query = ""] = cells(row);
    const path = /^`GET (\/\S*)`$/.exec(route)?.[1];
    if (!path)
      throw new Error(`a row of the route table does not start with \`GET <path>\`: ${row}`);
    return [path, quoted(query)] as const;
  }),
);

/** The query parameters a route's section names in its `Query parameters:` table; [] for `Query parameters: none`. */
function sectionQuery(path: string): string[] {
  const lines = section(`GET ${path}`);
  const start = lines.findIndex((line) => line.startsWith("Query parameters:"));
  if (start === -1) throw new Error(`section "GET ${path}" has no "Query parameters:" line`);
  if (/^Query parameters: none\b/.test(lines[start]!)) return [];
  const after = lines.slice(start + 1);
  const first = after.findIndex((line) => line.startsWith("|"));
  const end = after.findIndex((line, index) => index > first && !line.startsWith("|"));
  return rows(after.slice(first, end === -1 ? undefined : end)).map((row) => {
    const [name = ""] = quoted(cells(row)[0] ?? "");
    return name;
  });
}

/** The codes a route's section names on its `Errors:` line; [] for `Errors: none…`. */
function sectionErrors(path: string): string[] {
  const line = section(`GET ${path}`).find((text) => text.startsWith("Errors:"));
  if (!line) throw new Error(`section "GET ${path}" has no "Errors:" line`);
  return quoted(line);
}

/** The error codes an operation of the document lists, by status. */
function operationErrors(operation: Operation): Array<{ code: string; status: number }> {
  return Object.entries(operation.responses)
    .filter(([status]) => status !== "200")
    .flatMap(([status, { description }]) =>
      description.split(", ").map((code) => ({ code, status: Number(status) })),
    );
}

let document: OpenApiDocument;

beforeAll(async () => {
  // The document exactly as `docklens serve` serves it (a token set, so that 401 is in it), from
  // the app itself: no server listens, no engine is asked.
  const fleet = createFleet({ clusters: [], showSecrets: false, source: null, warnings: [] });
  const handler = toWebHandler(createApp({ fleet, token: "doc-test", log: false }));
  const response = await handler(
    new Request("http://localhost/openapi.json", { headers: { authorization: "Bearer doc-test" } }),
  );
  expect(response.status).toBe(200);
  document = (await response.json()) as OpenApiDocument;
});

describe("docs/http-interface.md and the OpenAPI document", () => {
  it("list the same routes", () => {
    const documented = [...routeTable.keys()].map(toOpenApiPath).sort();
    expect(documented).toEqual(Object.keys(document.paths).sort());
    // The route table of the server is in the document too (it is built from it).
    for (const route of API_ROUTES)
      expect(document.paths).toHaveProperty([toOpenApiPath(route.path)]);
  });

  it("give every route, and only routes, a `### GET <path>` section", () => {
    const headed = [...page.keys()]
      .flatMap((heading) => /^GET (\/\S*)$/.exec(heading)?.[1] ?? [])
      .sort();
    expect(headed).toEqual([...routeTable.keys()].sort());
  });

  it("say that every route answers GET and HEAD, and nothing else", () => {
    for (const [path, item] of Object.entries(document.paths))
      expect(Object.keys(item).sort(), path).toEqual(["get", "head"]);
  });

  it("name the same query parameters for each route, in the route table and in its section", () => {
    for (const [path, query] of routeTable) {
      const operation = document.paths[toOpenApiPath(path)]!.get!;
      const expected = operation.parameters
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => parameter.name)
        .sort();
      expect([...query].sort(), `route table, ${path}`).toEqual(expected);
      expect(sectionQuery(path).sort(), `section "GET ${path}"`).toEqual(expected);
    }
  });

  it("name every path parameter of each route in its path", () => {
    for (const path of routeTable.keys()) {
      const operation = document.paths[toOpenApiPath(path)]!.get!;
      const params = operation.parameters
        .filter((parameter) => parameter.in === "path")
        .map((parameter) => parameter.name);
      expect(
        [...path.matchAll(/:(\w+)/g)].map((match) => match[1]),
        path,
      ).toEqual(params);
    }
  });

  it("list, for each route, every error code the document gives it (beyond 401 and 405)", () => {
    for (const path of routeTable.keys()) {
      const listed = sectionErrors(path);
      for (const code of listed)
        expect(ERROR_CODES, `section "GET ${path}" names ${code}`).toContain(code);
      expect(new Set(listed).size, `section "GET ${path}" names a code twice`).toBe(listed.length);
      for (const operation of Object.values(document.paths[toOpenApiPath(path)]!)) {
        const codes = operationErrors(operation).map((error) => error.code);
        expect(codes, path).toContain("METHOD_NOT_ALLOWED");
        expect(listed, `section "GET ${path}"`).toEqual(
          expect.arrayContaining(codes.filter((code) => !COMMON.has(code))),
        );
      }
    }
  });

  it("give every error code, and only those, with its status in the error code table", () => {
    const table = rows(section("Error codes")).map((row) => {
      const [code = "", status = ""] = cells(row);
      return [quoted(code)[0] ?? code, Number(status)] as const;
    });
    expect(new Set(table.map(([code]) => code)).size).toBe(table.length);
    const byCode = Object.fromEntries(table);
    expect(Object.keys(byCode).sort()).toEqual([...ERROR_CODES].sort());
    expect(Object.keys(byCode).sort()).toEqual(
      [...document.components.schemas.ErrorBody.properties.code.enum].sort(),
    );
    for (const code of ERROR_CODES) expect(byCode[code], code).toBe(statusOf(code));
    // And each status the document answers a code with is the page's.
    for (const item of Object.values(document.paths))
      for (const operation of Object.values(item))
        for (const { code, status } of operationErrors(operation))
          expect(byCode[code], code).toBe(status);
  });

  it("list the detail index exactly as /detail answers it", async () => {
    const listed = rows(section("GET /detail")).map((row) => quoted(cells(row)[0] ?? "")[0]);
    const { routes } = await detailIndex();
    expect(listed).toEqual(routes.map((route) => route.path));
    for (const route of routes) expect(routeTable.has(route.path), route.path).toBe(true);
  });

  it("link only to headings it has, and cite no decision numbers", () => {
    const anchors = new Set([...page.keys()].map(anchor));
    for (const [, target] of PAGE.matchAll(/\]\(#([^)]+)\)/g))
      expect(anchors, `link #${target}`).toContain(target);
    expect(PAGE).not.toMatch(/\bD\d{1,2}\b|spec rule/i);
  });
});
