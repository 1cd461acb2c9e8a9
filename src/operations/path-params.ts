// The parameters of the routes' paths (`:cluster`, `:containerName`): what each names, and the
// JSON Schema of what a route takes, for the OpenAPI document and the MCP server's tools. The
// core checks each name where it uses it (names.ts): these say the same in a document.
import {
  IMAGE_REFERENCE_PATTERN,
  MAX_NAME_LENGTH,
  NAME_PATTERN,
  unanchored,
} from "../core/names.ts";
import type { Schema } from "./schema.ts";

/** `^a$` and `^b$` as `^(?:a|b)$`: one pattern for a parameter that takes several forms. */
const anyOf = (...patterns: RegExp[]) => `^(?:${patterns.map(unanchored).join("|")})$`;
const name = { type: "string", pattern: NAME_PATTERN.source, maxLength: MAX_NAME_LENGTH };
const clusterRef = {
  type: "string",
  pattern: anyOf(/^\d{1,15}$/, NAME_PATTERN),
  maxLength: MAX_NAME_LENGTH,
};

/** Path parameters: what each names, and exactly what the server accepts of it. */
export const PATH_PARAMS: Record<string, { description: string; schema: Schema }> = {
  cluster: { description: "Cluster name, or id when made only of digits", schema: clusterRef },
  clusterid: { description: "Cluster id, or name", schema: clusterRef },
  containerName: {
    description: "Container name (with or without its leading /), full id, or unique id prefix",
    schema: {
      type: "string",
      pattern: anyOf(/^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]*$/),
      maxLength: MAX_NAME_LENGTH + 1,
    },
  },
  imageName: {
    description: "Image reference, raw (local/busybox:1) or percent-encoded, or id (sha256:…)",
    schema: { type: "string", pattern: anyOf(IMAGE_REFERENCE_PATTERN), maxLength: MAX_NAME_LENGTH },
  },
  volumeName: { description: "Volume name", schema: name },
  networkName: { description: "Network name or id", schema: name },
  path: {
    description:
      "An engine API path as docklens reads it (containers/json, containers/web/logs); the node checks it",
    schema: { type: "string", pattern: "^[a-zA-Z0-9_.%:@/-]+$", maxLength: 2048 },
  },
};
