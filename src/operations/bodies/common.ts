// The parts of the response bodies that the others refer to: the error body, every error
// answer, a cluster's reference, and a cluster that could not be read.
import { ERROR_CODES } from "../../core/errors.ts";
import { closed, int, ref, str, type Schema } from "../schema.ts";

/** The error body, and the parts bodies across clusters name the clusters with. */
export const COMMON_SCHEMAS = {
  ErrorBody: closed({ code: { type: "string", enum: ERROR_CODES }, message: str }),
  Error: closed({ error: ref("ErrorBody") }),
  ClusterRef: closed({ id: int, name: str }),
  ClusterError: closed({ cluster: ref("ClusterRef"), error: ref("ErrorBody") }),
} as const satisfies Record<string, Schema>;
