// The `nodes` key of the config file (D22, docs/guide/nodes.md): other docklens serves whose
// clusters this one shows as `<node>.<cluster>`, each reached over HTTP(S) with a token of its own.
import { z } from "zod/mini";
import { MAX_NAME_LENGTH } from "../names.ts";
import { cached } from "./cached.ts";

/** A node's name: a cluster name without dots, so that `<node>.<cluster>` reads one way. */
export const NODE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/;

/** The `nodes` of the config, each named once; made when a config file has them. */
export const nodesSchema = cached(() => {
  const text = z.string({ error: "expected a string" });
  const path = text.check(z.minLength(1, "expected a path"));

  const nodeSchema = z.strictObject({
    name: text.check(
      z.maxLength(MAX_NAME_LENGTH, `expected at most ${MAX_NAME_LENGTH} characters`),
      z.regex(
        NODE_NAME,
        "expected letters, digits, '_' or '-' (no dot), starting with one of the first two",
      ),
      z.refine((value) => !/^\d+$/.test(value), "must not be made only of digits"),
    ),
    url: text.check(
      z.regex(
        /^https?:\/\/[^/?#\s]+\/?$/,
        "expected the http:// or https:// URL of a docklens serve",
      ),
    ),
    token: z.union(
      [
        z.strictObject({
          env: text.check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a variable name")),
        }),
        z.strictObject({ file: path }),
      ],
      { error: "expected { env: NAME } or { file: PATH }: where the node's token is" },
    ),
    tls: z.optional(
      z.strictObject({ ca: z.optional(path), cert: z.optional(path), key: z.optional(path) }),
    ),
  });

  return z.array(nodeSchema, { error: "expected an array of nodes" }).check(
    z.superRefine((nodes, ctx) => {
      const names = new Set<string>();
      nodes.forEach((node, index) => {
        if (names.has(node.name))
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `duplicate name "${node.name}"`,
          });
        names.add(node.name);
      });
    }),
  );
});

/** A node of the config file, as written. */
export interface NodeConfigInput {
  /** Letters, digits, `_` or `-`; its clusters appear as `<name>.<cluster>`. */
  name: string;
  /** The node's `docklens serve`: `https://edge.example:8080`. */
  url: string;
  /** Where the node's token is: an environment variable, or a file (read on each connection). */
  token: { env: string } | { file: string };
  /** PEM files: the CA that signed the node's certificate, and a client certificate and key. */
  tls?: { ca?: string; cert?: string; key?: string };
}

/** A node as docklens uses it (the same fields: the URL without a trailing `/`). */
export type NodeConfig = NodeConfigInput;

/** The nodes of a validated config. */
export function toNodeConfigs(nodes: readonly NodeConfigInput[]): NodeConfig[] {
  return nodes.map((node) => ({ ...node, url: node.url.replace(/\/$/, "") }));
}
