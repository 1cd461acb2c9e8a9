// `docklens tui`: the fleet in the terminal, live and read-only (docs/guide/tui.md). Ink and React
// load only here: `docklens --help` and every other command never import them.
import { createElement as h } from "react";
import { render } from "ink";
import { setMaxListeners } from "node:events";
import { DocklensError } from "../core/errors.ts";
import { openFleet } from "../core/node/open-fleet.ts";
import { App } from "./app.ts";
import { openStore } from "./store.ts";

/** Options of `docklens tui`, as commander gives them. */
export interface TuiOptions {
  config?: string;
  dataDir?: string;
}

/** Draw the fleet until `q` or Ctrl-C; the terminal is left as it was found. */
export async function tui(clusters: string[], options: TuiOptions): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new DocklensError("INVALID_QUERY", "docklens tui needs a terminal (stdin and stdout)");
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const opened = await openFleet({
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    live: true,
    watch: stop.signal,
  });
  try {
    const store = await openStore(opened.fleet, clusters, stop.signal);
    const app = render(h(App, { store, fleet: opened.fleet }), {
      alternateScreen: true,
      patchConsole: false,
      exitOnCtrlC: true,
      // A keystroke is drawn within a frame of 60 a second, not the 30 of Ink's default.
      maxFps: 60,
      // The terminal was checked above: Ink would otherwise draw only its last frame wherever
      // CI is set (is-in-ci), as in a CI job's own terminal or a shell that exports it.
      interactive: true,
    });
    await app.waitUntilExit();
  } finally {
    stop.abort();
    await opened.close();
  }
  // The fleet's live watches keep timers of their grace period: the view is done now.
  process.exit(0);
}
