// What the page reads of serve's history (`/history/*`, docs/guide/history.md): a container's
// record, lines, stats and events, by its full id (a replacement under its name is another
// container), over a window; and the one line said when serve keeps none.
import { ApiError, getJson, withQuery } from "./api.ts";
import type { HistoryWindow } from "./history-window.ts";

export { recentWindow, statsStep, windowOf, type HistoryWindow } from "./history-window.ts";

/** The query of a read of one container of one cluster over `window`. */
export function historyPath(
  path: "logs" | "stats" | "events",
  cluster: string,
  container: string,
  window: HistoryWindow | undefined,
  more: Record<string, string | undefined> = {},
): string {
  return withQuery(`/history/${path}`, {
    cluster,
    container,
    since: window?.since,
    until: window?.until || undefined,
    ...more,
  });
}

/** A body of `/history/*`, or why there is none: its note, or a serve that has no such route. */
export async function readHistory<T extends { note?: string }>(
  path: string,
  signal: AbortSignal,
): Promise<{ body?: T; none: string }> {
  try {
    const body = await getJson<T>(path, signal);
    return { body, none: body.note ? noneLine(body.note) : "" };
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status === 404 &&
      /^(ROUTE_NOT_FOUND|HTTP_404)$/.test(error.code)
    )
      return { none: "This serve keeps no history (it has no /history routes)." };
    throw error;
  }
}

/** The one line said where serve keeps nothing: its note, in the page's words. */
export function noneLine(note: string): string {
  return /no history here/.test(note)
    ? "This serve keeps no history (history: false in its configuration)."
    : `No history to show: ${note}.`;
}
