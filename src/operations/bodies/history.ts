// The bodies of the history reads (D26): a container's last record, events, lines and stats
// samples kept by serve, each tagged with its cluster.
import { arrayOf, closed, int, nullable, obj, ref, str } from "../schema.ts";

const number = { type: "number" } as const;
const note = {
  type: "string",
  description: "Why there is nothing to read: nothing records here (no serve), or its store failed",
} as const;
const container = closed({ id: str, name: str });

/** The bodies of `/history/*`. */
export const HISTORY_SCHEMAS = {
  HistoryContainers: closed(
    {
      containers: arrayOf(
        closed({
          cluster: ref("ClusterRef"),
          id: str,
          name: str,
          image: str,
          state: str,
          exitCode: nullable("integer"),
          recorded: str,
          removed: nullable("string"),
          inspect: {
            type: "object",
            description: "Its inspect body when recorded, secrets redacted",
          },
        }),
      ),
      note,
    },
    ["containers"],
  ),
  HistoryEvents: closed({ events: arrayOf(obj({ cluster: ref("ClusterRef") })), note }, ["events"]),
  HistoryLogs: closed(
    {
      lines: arrayOf(
        closed({
          cluster: ref("ClusterRef"),
          container,
          time: str,
          stream: { type: "string", enum: ["stdout", "stderr"] },
          text: str,
        }),
      ),
      note,
    },
    ["lines"],
  ),
  HistoryStats: closed(
    {
      series: arrayOf(
        closed({
          cluster: ref("ClusterRef"),
          container,
          points: arrayOf(
            closed({
              time: str,
              cpuPercent: number,
              memoryUsage: int,
              memoryLimit: number,
              netRx: number,
              netTx: number,
              blockRead: number,
              blockWrite: number,
              pids: number,
            }),
          ),
        }),
      ),
      note,
    },
    ["series"],
  ),
} as const;
