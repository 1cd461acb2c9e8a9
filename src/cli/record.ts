// Recording history in `docklens serve` and `docklens node` (D26): on unless the config says
// `history: false`; what it cannot do goes to stderr, and live views go on.
import type { Fleet } from "../core/engine/fleet.ts";
import { stderrLog } from "./stderr-log.ts";

/** Check the config's `history` before serve or node listens: a bad one stops them there. */
export async function checkRecording(fleet: Fleet): Promise<void> {
  if (fleet.config.history === false) return;
  await (await import("../core/history/history.ts")).checkHistory(fleet);
}

/** Start recording `fleet`'s clusters; undefined when the config turns history off. */
export async function startRecording(fleet: Fleet, options: { dataDir?: string; json?: boolean }) {
  if (fleet.config.history === false) return undefined;
  const { startHistory } = await import("../core/history/history.ts");
  return startHistory({
    fleet,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    log: stderrLog("history", options.json),
  });
}
