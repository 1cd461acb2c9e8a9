import { request } from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { alphaAndBravo, writeConfig } from "./helpers.ts";
import { raw, startServer, type TestServer } from "./server-helpers.ts";

/**
 * Requests generated from the OpenAPI document itself, as an API tester's tool makes them:
 * parameters from their patterns and enums, the names the engines really hold, and hostile
 * strings besides. Whatever comes, the server answers as the document says.
 */
type ParamSchema = {
  type?: string;
  pattern?: string;
  enum?: string[];
  maxLength?: number;
  items?: ParamSchema;
};
type Operation = {
  parameters: Array<{ name: string; in: "path" | "query"; schema: ParamSchema }>;
  responses: Record<string, any>;
};

let server: TestServer;
let openapi: {
  paths: Record<string, { get: Operation; head: Operation }>;
  components: { schemas: Record<string, any> };
};
let ajv: Ajv2020;

beforeAll(async () => {
  // The test engines without the hanging one, whose time limit would only slow the run down.
  const config = await writeConfig("properties.json", {
    clusters: [...alphaAndBravo(), { name: "dead", host: "127.0.0.1", port: 1, timeoutMs: 1000 }],
  });
  // Live, as serve's fleet is: the watch of container lists needs it.
  server = await startServer({
    log: false,
    fleet: await loadFleet({ configPath: config, live: true }),
  });
  openapi = (await raw(server.port, "/openapi.json")).json;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  for (const [name, schema] of Object.entries(openapi.components.schemas))
    ajv.addSchema(schema, `#/components/schemas/${name}`);
});
afterAll(() => server.close());

/** What the engines hold, so that generated requests reach them and not only the 404s. */
const KNOWN: Record<string, string[]> = {
  // A path's cluster, or one of the clusters an across-cluster route asks (the hanging one is not in this config).
  cluster: ["alpha", "alpha", "1", "bravo", "7", "dead", "3", "nope"],
  clusterid: ["alpha", "1", "bravo", "7", "dead"],
  containerName: ["web", "/web", "sick", "frozen", "fresh", "failed", "b-one", "b-tty", "nope"],
  imageName: ["local/busybox:1", "local/busybox", "busybox", "nope:1"],
  volumeName: ["data", "scratch", "b-vol", "nope"],
  networkName: ["lens-net", "bridge", "none", "nope"],
  tail: ["0", "3", "all"],
  since: ["10m", "1000", "2026-11-22"],
  until: ["1s", "2000000000"],
  filter: [
    "status=running",
    "label=app",
    "health=unhealthy",
    "name=web",
    "dangling=true",
    "driver=local",
    "reference=local/app",
  ],
};

/**
 * A value for a parameter: a known one, one its schema allows, or anything at all (but never
 * empty in a path, where an empty segment is another path, not this route with a bad value).
 */
function valueOf(name: string, schema: ParamSchema, inPath: boolean): fc.Arbitrary<string> {
  const allowed = schema.enum
    ? fc.constantFrom(...schema.enum)
    : schema.pattern
      ? fc
          .stringMatching(new RegExp(schema.pattern))
          .filter((value) => value.length <= (schema.maxLength ?? 255))
      : fc.string();
  const hostile = fc
    .oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom("..", "%2e%2e", "a?b=1", "a#b", "", " ", "../../images/json", "TRUE", "yes"),
    )
    .filter((value) => !inPath || value !== "");
  // Mostly good values, so that requests get past the first check and reach the engines.
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(KNOWN[name] ?? ["x"])), weight: 10 },
    { arbitrary: allowed, weight: 6 },
    { arbitrary: hostile, weight: inPath ? 2 : 1 },
  );
}

/** One request of an operation: its path with parameters filled in and a query of some of its parameters. */
function requestOf(
  template: string,
  operation: Operation,
): fc.Arbitrary<{ method: "GET" | "HEAD"; path: string }> {
  const path = operation.parameters.filter((p) => p.in === "path");
  const query = operation.parameters.filter((p) => p.in === "query");
  return fc
    .record({
      method: fc.constantFrom("GET" as const, "GET" as const, "GET" as const, "HEAD" as const),
      path: fc.tuple(...path.map((p) => valueOf(p.name, p.schema, true))),
      // A repeatable parameter (its schema an array's) is given 0 to 2 times.
      query: fc.tuple(
        ...query.map((p) =>
          p.schema.items
            ? fc.array(valueOf(p.name, p.schema.items, false), { maxLength: 2 })
            : fc.option(valueOf(p.name, p.schema, false), { nil: undefined }),
        ),
      ),
    })
    .map(({ method, path: values, query: optional }) => {
      let filled = template;
      path.forEach(
        (p, index) => (filled = filled.replace(`{${p.name}}`, encodeURIComponent(values[index]!))),
      );
      const search = new URLSearchParams();
      query.forEach((p, index) =>
        [optional[index] ?? []].flat().forEach((value) => search.append(p.name, value)),
      );
      return { method, path: `${filled}${search.size ? `?${search.toString()}` : ""}` };
    });
}

/** The status, type and body of a response; of a stream, its first line at most (then it leaves). */
function send(
  method: string,
  path: string,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, method }, (res) => {
      const type = String(res.headers["content-type"] ?? "");
      let body = "";
      const done = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, type, body });
      };
      // A stream may wait long for its first line (follow with tail=0): a second is enough to read.
      const timer = setTimeout(done, type.includes("ndjson") ? 1500 : 20_000);
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
        if (type.includes("ndjson") && body.includes("\n")) done();
      });
      res.on("end", done);
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** Runs per route; stats takes the engine a second per sample. */
const RUNS = (template: string) =>
  template.endsWith("/stats") ? 10 : template.includes("{") ? 60 : 10;

describe("requests generated from /openapi.json", () => {
  it("every parameter has a schema that says what the server accepts, and HEAD declares no body", () => {
    for (const [template, { get, head }] of Object.entries(openapi.paths)) {
      for (const { schema, name } of get.parameters)
        expect(
          (schema.items ?? schema).pattern ?? (schema.items ?? schema).enum,
          `${template} ${name}`,
        ).toBeDefined();
      for (const response of Object.values(head.responses))
        expect(response.content, template).toBeUndefined();
    }
  });

  it("answer as the document says: no 5xx but 502/504, every 4xx a JSON error it lists, every 2xx body valid", async () => {
    const codes: string[] = openapi.components.schemas.ErrorBody.properties.code.enum;
    for (const [template, operations] of Object.entries(openapi.paths)) {
      await fc.assert(
        fc.asyncProperty(requestOf(template, operations.get), async ({ method, path }) => {
          const { status, type, body } = await send(method, path);
          (globalThis as any).__seen ??= {};
          (globalThis as any).__seen[`${template} ${status}`] =
            ((globalThis as any).__seen[`${template} ${status}`] ?? 0) + 1;
          const documented = operations.get.responses[String(status)];
          const where = `${method} ${path} → ${status} ${body.slice(0, 200)}`;
          expect(documented, where).toBeDefined();
          if (status >= 500) expect([502, 504], where).toContain(status);
          if (method === "HEAD") return void expect(body, where).toBe("");
          if (status >= 400) {
            expect(type, where).toBe("application/json");
            const { error } = JSON.parse(body);
            expect(codes, where).toContain(error.code);
            expect(documented.description.split(", "), where).toContain(error.code);
            return;
          }
          const ndjson = type.includes("ndjson");
          const content = documented.content[type.split(";")[0]!];
          expect(content, where).toBeDefined();
          const line = ndjson ? body.split("\n")[0] : body;
          if (!line) return; // A stream that had nothing to say within the second.
          const check = ajv.compile(content.schema);
          const value = type.startsWith("text/plain") ? line : JSON.parse(line);
          // A stream may end with an error line, which its schema allows too.
          if (ndjson && value.error) expect(codes, where).toContain(value.error.code);
          expect(check(value), `${where}\n${JSON.stringify(check.errors?.slice(0, 3))}`).toBe(true);
        }),
        { numRuns: RUNS(template), endOnFailure: true },
      );
    }
    console.log(JSON.stringify((globalThis as any).__seen));
  }, 240_000);
});
