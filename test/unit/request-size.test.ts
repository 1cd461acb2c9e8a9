import { describe, expect, it } from "vitest";
import { MAX_HEADER_BYTES } from "../../src/server/app.ts";
import { createOpenApiDocument } from "../../src/server/openapi.ts";
import { API_ROUTES } from "../../src/server/routes.ts";

const document = createOpenApiDocument(API_ROUTES, { token: true }) as any;
const operations = Object.entries(document.paths).map(([path, item]: [string, any]) => ({
  path,
  get: item.get,
}));

/**
 * Bytes a character of a value may take in the request target: a name's characters need no
 * percent-encoding; free text (filters, grep) may be any code point, 4 bytes of UTF-8, each
 * `%XX`; other patterns' ASCII may be percent-encoded.
 */
const bytesPerCharacter = (name: string) =>
  ["cluster", "project"].includes(name) ? 1 : ["filter", "grep"].includes(name) ? 12 : 3;

describe("the largest request the OpenAPI document allows", () => {
  it("bounds every repeatable parameter and every string value", () => {
    for (const { path, get } of operations)
      for (const param of get.parameters) {
        const schema = param.schema.type === "array" ? param.schema.items : param.schema;
        if (param.schema.type === "array") expect(param.schema.maxItems, path).toBeGreaterThan(0);
        expect(schema.maxLength ?? schema.enum, `${path} ${param.name}`).toBeDefined();
      }
  });

  it("fits in the server's MAX_HEADER_BYTES, with 16 KiB to spare for the other headers", () => {
    for (const { path, get } of operations) {
      let bytes = path.length + "GET  HTTP/1.1\r\n".length;
      for (const param of get.parameters) {
        const array = param.schema.type === "array";
        const schema = array ? param.schema.items : param.schema;
        const longest = schema.maxLength ?? Math.max(...schema.enum.map((v: string) => v.length));
        const one =
          param.in === "path"
            ? longest * 3
            : param.name.length + 2 + longest * bytesPerCharacter(param.name);
        bytes += one * (array ? param.schema.maxItems : 1);
      }
      expect(bytes, path).toBeLessThanOrEqual(MAX_HEADER_BYTES - 16 * 1024);
    }
  });

  it("lists 400 INVALID_QUERY on every operation: any request may be one the HTTP layer cannot read", () => {
    for (const { path, get } of operations)
      expect(get.responses["400"]?.description, path).toMatch(/INVALID_QUERY/);
  });
});
