// The schemas of the config file's clusters and tokens, and of the fields other keys share with
// them: each made on first use, for a file that has a key they check (config-schema.ts).
import { z } from "zod/mini";
import { cached } from "./cached.ts";
import { parseEndpoint } from "./endpoint.ts";
import { CLUSTER_GLOB_PATTERN, MAX_NAME_LENGTH, NAME_PATTERN } from "../names.ts";

/** `message` for a value that is not an object (`tls: true`); zod's own words for the rest. */
function notAnObject(message: string) {
  return (issue: { code?: string }) => (issue.code === "invalid_type" ? message : undefined);
}

/** Fields several keys share: each zod schema made costs a run with a config file. */
export const fields = cached(() => {
  const integer = z.int({
    error: (issue) => (issue.input === undefined ? "required" : "expected an integer"),
  });
  const text = z.string({
    error: (issue) => (issue.input === undefined ? "required" : "expected a string"),
  });
  const timeoutMs = integer.check(
    z.minimum(1, "expected at least 1 ms"),
    z.maximum(600_000, "expected at most 600000 ms"),
  );
  const tuning = {
    timeoutMs: z.optional(timeoutMs),
    diskUsageTimeoutMs: z.optional(timeoutMs),
    maxConcurrency: z.optional(
      integer.check(z.minimum(1, "expected at least 1"), z.maximum(256, "expected at most 256")),
    ),
    cacheTtlMs: z.optional(
      integer.check(
        z.minimum(0, "expected 0 or more ms"),
        z.maximum(600_000, "expected at most 600000 ms"),
      ),
    ),
  };
  const name = text.check(
    // Before the pattern: a long name is refused for its length, whatever its characters.
    z.maxLength(MAX_NAME_LENGTH, {
      error: (issue) =>
        `expected at most ${MAX_NAME_LENGTH} characters, not ${(issue.input as string).length}`,
    }),
    z.regex(
      NAME_PATTERN,
      "expected letters, digits, '_', '.' or '-', starting with a letter or digit",
    ),
  );
  return { integer, text, tuning, name };
});

/** A cluster of the config file. */
export const clusterSchema = cached(() => {
  const { integer, text, tuning, name } = fields();
  const optionalText = z.optional(text);
  return z
    .strictObject({
      id: z.optional(integer.check(z.minimum(1, "expected a positive integer"))),
      name: name.check(
        z.refine(
          (value) => !/^\d+$/.test(value),
          "must not be made only of digits: a reference made of digits means a cluster id",
        ),
      ),
      icon: z.optional(text.check(z.maxLength(16, "expected at most 16 characters"))),
      host: text.check(z.minLength(1, "required")),
      port: z.optional(
        integer.check(
          z.minimum(1, "expected a port from 1 to 65535"),
          z.maximum(65535, "expected a port from 1 to 65535"),
        ),
      ),
      tls: z.optional(
        z.strictObject(
          { ca: optionalText, cert: optionalText, key: optionalText },
          {
            error: notAnObject(
              "expected an object of PEM file paths, { ca, cert, key }, each optional " +
                "({} for TLS with the system's CAs)",
            ),
          },
        ),
      ),
      ssh: z.optional(
        z.strictObject(
          { username: optionalText, privateKey: optionalText },
          { error: notAnObject("expected an object, { username, privateKey }, each optional") },
        ),
      ),
      ...tuning,
    })
    .check(
      z.superRefine((cluster, ctx) => {
        try {
          parseEndpoint(cluster.host, cluster.port, cluster.tls !== undefined);
        } catch (error) {
          ctx.addIssue({ code: "custom", path: ["host"], message: (error as Error).message });
        }
      }),
    );
});

/** A token of `serve` that sees only some clusters: its SHA-256 or the variable holding it, never the token itself. */
export const tokenSchema = cached(() => {
  const { text, name } = fields();
  return z
    .strictObject({
      name,
      sha256: z.optional(
        text.check(
          z.regex(
            /^[a-fA-F0-9]{64}$/,
            "expected the token's SHA-256, 64 hex digits (docklens token hash makes it)",
          ),
        ),
      ),
      env: z.optional(
        text.check(
          z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected the name of an environment variable"),
        ),
      ),
      clusters: z
        .array(
          text.check(
            z.regex(
              CLUSTER_GLOB_PATTERN,
              "expected a cluster name, or a glob of names with * and ?",
            ),
          ),
          { error: "expected an array of cluster names or globs" },
        )
        .check(z.minLength(1, "expected at least one cluster name or glob")),
    })
    .check(
      z.refine((token) => (token.sha256 === undefined) !== (token.env === undefined), {
        message: "expected either sha256 or env, not both and not neither",
      }),
    );
});
