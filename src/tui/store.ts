// What the screen draws from: the one container watch of the fleet (the mirror serve uses) and
// the stats rounds, applied as they come and told to the screen at most every 100 ms.
import type { Fleet as DocklensFleet } from "../core/engine/fleet.ts";
import { watchContainers } from "../core/containers/container-watch.ts";
import { streamAllStats } from "../core/containers/all-stats.ts";
import { applyLine, emptyFleet, type Row, type Usage } from "./model.ts";

/** How often at most the screen hears of changes: a burst of events is one redraw. */
const REDRAW_MS = 100;

/** The fleet as the TUI holds it. */
export interface FleetStore {
  fleet: ReturnType<typeof emptyFleet>;
  /** CPU % and memory bytes by row key, from the last stats round. */
  usage: Map<string, Usage>;
  allRows(): Row[];
  count(): number;
  /** Call `listener` after changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** Start watching `clusters` (every cluster when empty) of a live fleet until `signal` aborts. */
export async function openStore(
  fleet: DocklensFleet,
  clusters: string[],
  signal: AbortSignal,
): Promise<FleetStore> {
  // Unknown cluster names fail here, before the screen opens.
  const lines = await watchContainers({ fleet, clusters, signal });
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      for (const listener of listeners) listener();
    }, REDRAW_MS);
  };
  const store: FleetStore = {
    fleet: emptyFleet(),
    usage: new Map(),
    allRows: () => [...store.fleet.rows.values()].flatMap((rows) => [...rows.values()]),
    count: () => [...store.fleet.rows.values()].reduce((sum, rows) => sum + rows.size, 0),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  void (async () => {
    for await (const line of lines) if (applyLine(store.fleet, line)) changed();
  })().catch(() => {});
  void (async () => {
    const rounds = await streamAllStats({ fleet, clusters, signal });
    for await (const round of rounds) {
      // A round of nothing after a round of nothing (no container running) changes nothing.
      if (!round.stats.length && !store.usage.size) continue;
      store.usage = new Map(
        round.stats.map(({ cluster, container, summary }) => [
          `${cluster.id}/${container.id}`,
          { cpu: summary.cpuPercent, memory: summary.memoryUsage },
        ]),
      );
      changed();
    }
  })().catch(() => {}); // Stats are a bonus: the columns stay empty when they cannot be read.
  signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  return store;
}
