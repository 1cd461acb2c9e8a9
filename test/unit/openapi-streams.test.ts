import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createOpenApiDocument } from "../../src/server/openapi.ts";
import { API_ROUTES } from "../../src/server/routes.ts";

type Document = {
  paths: Record<
    string,
    { get?: { responses: Record<string, { content?: Record<string, { schema: object }> }> } }
  >;
  components: { schemas: Record<string, object> };
};
const document = createOpenApiDocument(API_ROUTES, { token: true }) as Document;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
for (const [name, schema] of Object.entries(document.components.schemas))
  ajv.addSchema(schema, `#/components/schemas/${name}`);

/** Each stream's content types in the document, with the route they answer. */
const STREAMS = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item.get?.responses["200"]?.content ?? {})
    .filter(([type]) => type === "application/x-ndjson" || type === "text/event-stream")
    .map(([type, { schema }]) => [`${path} (${type})`, schema] as const),
);

describe("the OpenAPI document's streams (docs/http-interface.md, Streams)", () => {
  it("documents some", () => expect(STREAMS.length).toBeGreaterThan(10));

  // A stream that fails, or a serve that shuts down, ends it with a last line that is an error.
  it.each(STREAMS)("%s takes a last line { error }", (_, schema) => {
    const check = ajv.compile(schema);
    const line = { error: { code: "ENGINE_UNREACHABLE", message: "the engine went away" } };
    expect(check(line), JSON.stringify(check.errors?.slice(0, 2))).toBe(true);
  });
});
