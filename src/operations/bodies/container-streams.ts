// The bodies of one container's output and processes: its logs, its attached output, its
// processes, its stats samples (the figures `docker stats` shows are those of /stats too).
import { arrayOf, closed, counts, nullable, ref, str, type Schema } from "../schema.ts";

/** `/logs`, `/attach`, `/top` and `/stats` of one container. */
export const CONTAINER_STREAM_SCHEMAS = {
  LogLine: closed({
    stream: { type: "string", enum: ["stdout", "stderr"] },
    time: nullable("string"),
    text: str,
  }),
  LogLines: closed({ lines: arrayOf(ref("LogLine")) }),
  AttachLine: closed({ stream: { type: "string", enum: ["stdout", "stderr"] }, text: str }),
  Processes: closed({ Titles: arrayOf(str), Processes: arrayOf(arrayOf(str)) }),
  StatsSample: closed({
    summary: ref("StatsSummary"),
    raw: { type: "object", description: "The engine's stats body" },
  }),
  /** The figures `docker stats` shows, in one container's sample and in `/stats`' rounds. */
  StatsSummary: closed(
    counts([
      "cpuPercent",
      "memoryUsage",
      "memoryLimit",
      "memoryPercent",
      "netRx",
      "netTx",
      "blockRead",
      "blockWrite",
      "pids",
    ]),
  ),
} as const satisfies Record<string, Schema>;
