// `docklens tui` in a real pseudo-terminal (node-pty), its screen read back through a terminal
// emulator (@xterm/headless), as a person at a terminal would see it.
import pty from "node-pty";
import xterm from "@xterm/headless";
import { join } from "node:path";

/** The built CLI (helpers.ts names it too; this file runs outside vitest as well, for bench/). */
const BIN = join(import.meta.dirname, "../../bin/docklens.mjs");

/** A running `docklens tui` and what its terminal shows. */
export interface TuiScreen {
  /** The visible lines, right-trimmed. */
  lines(): string[];
  /** Wait until the screen has `text` (or `test` holds); fails with the screen after `ms`. */
  waitFor(test: string | ((screen: string) => boolean), ms?: number): Promise<string>;
  /** Type keys: text, or escapes such as "\r", "\x1b", "\x1b[B". */
  press(keys: string): void;
  resize(columns: number, rows: number): void;
  /** Everything written to the terminal so far (escape sequences included). */
  written(): string;
  /** Wait for the process to end; its exit code. */
  exited(): Promise<number>;
  /** The terminal's state: on the alternate screen or not, the cursor shown or not. */
  modes(): { alternate: boolean; cursorShown: boolean };
  kill(): void;
  /** The process id of docklens. */
  pid: number;
}

/** Start `docklens tui ...args` at `columns` x `rows`. */
export function startTui(
  args: string[],
  {
    columns = 120,
    rows = 30,
    env = {},
    quietMs = 15,
  }: {
    columns?: number;
    rows?: number;
    env?: object;
    /** A screen is read once nothing came for this long: a frame may come in several chunks. */
    quietMs?: number;
  } = {},
): TuiScreen {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [BIN, "tui", ...args], {
    cols: columns,
    rows,
    name: "xterm-256color",
    env: { ...process.env, ...env },
  });
  let all = "";
  let woken: (() => void) | undefined;
  let last = 0;
  let code: number | undefined;
  const ended = new Promise<number>((resolve) =>
    child.onExit(({ exitCode }) => resolve((code = exitCode))),
  );
  child.onData((data) => {
    all += data;
    last = performance.now();
    terminal.write(data, () => woken?.());
  });
  // The emulator parses asynchronously: a screen is read after what was written is parsed.
  const settled = () => new Promise<void>((resolve) => terminal.write("", resolve));
  const lines = () => {
    const buffer = terminal.buffer.active;
    return Array.from({ length: terminal.rows }, (_, y) =>
      (buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "").trimEnd(),
    );
  };
  return {
    lines,
    async waitFor(test, ms = 20_000) {
      const holds = typeof test === "string" ? (screen: string) => screen.includes(test) : test;
      const until = Date.now() + ms;
      for (;;) {
        await settled();
        const screen = lines().join("\n");
        if (performance.now() - last >= quietMs && holds(screen)) return screen;
        if (Date.now() > until || code !== undefined)
          throw new Error(`not on the screen: ${String(test)}\n---\n${screen}\n---`);
        // Again when more was drawn, or after 50 ms (a process that ended, a clock).
        await new Promise<void>((resolve) => {
          woken = resolve;
          setTimeout(resolve, quietMs ? Math.min(50, quietMs) : 50);
        });
      }
    },
    press: (keys) => child.write(keys),
    resize(c, r) {
      child.resize(c, r);
      terminal.resize(c, r);
    },
    written: () => all,
    exited: () => ended.then(async (exit) => (await settled(), exit)),
    modes: () => ({
      alternate: terminal.buffer.active.type === "alternate",
      // The last word on the cursor: DECTCEM's hide (`\e[?25l`) or show (`\e[?25h`).
      cursorShown: all.lastIndexOf("\x1b[?25h") >= all.lastIndexOf("\x1b[?25l"),
    }),
    kill: () => code === undefined && child.kill(),
    pid: child.pid,
  };
}
