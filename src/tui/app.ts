// The TUI's screen: the table of every container, the filter line, the help, and the logs pane a
// key away. Read-only: no key acts on a container. React without JSX (`h`): no build change.
import { createElement as h, useEffect, useMemo, useState, type ReactNode } from "react";
import chalk, { type ForegroundColorName } from "chalk";
import { Box, Text, useApp, useInput, useWindowSize } from "ink";
import type { Fleet as DocklensFleet } from "../core/engine/fleet.ts";
import { COLUMNS, fit, layout, rowFilter, sortRows, type Row } from "./model.ts";
import type { FleetStore } from "./store.ts";
import { LogsPane } from "./logs-pane.ts";
import { escapeControls } from "../cli/render/escape.ts";

/** Colours off under `NO_COLOR` (https://no-color.org); the cursor row is inverse either way. */
export const COLOR = !process.env.NO_COLOR;
const STATE_COLOR: Record<string, ForegroundColorName> = {
  running: "green",
  exited: "gray",
  dead: "red",
  restarting: "yellow",
  paused: "yellow",
  created: "cyan",
  healthy: "green",
  unhealthy: "red",
  starting: "yellow",
  down: "red",
  waiting: "yellow",
};
const colored = (text: string, word: string) =>
  h(Text, COLOR && STATE_COLOR[word] ? { color: STATE_COLOR[word] } : {}, text);
/** The same colour as a string's escape codes: a table row is one Text, not one per cell. */
const paint = (text: string, word: string) => {
  const color = COLOR ? STATE_COLOR[word] : undefined;
  return color ? chalk[color](text) : text;
};

/** Every key, for `?`. */
export const KEYS: Array<[string, string]> = [
  ["↑ ↓  j k", "move; PgUp PgDn, g G: a page, the top, the end"],
  ["← →  h l", "choose the sort column; s: reverse the order"],
  [
    "/",
    "filter: words (name, image, project, cluster) and status=, health=, label=k[=v], cluster=, project=",
  ],
  ["Enter", "the container's logs (follow, grep, timestamps)"],
  ["Esc", "back; in the filter: clear it"],
  ["?", "this help"],
  ["q  Ctrl-C", "quit"],
  ["logs: /", "grep (RE2); t: timestamps; ↑ ↓ PgUp PgDn: scroll back; f or G: follow again"],
];

interface AppProps {
  store: FleetStore;
  fleet: DocklensFleet;
}

/** The whole screen. */
export function App({ store, fleet }: AppProps): ReactNode {
  const { exit } = useApp();
  const { columns, rows: height } = useWindowSize();
  const [version, setVersion] = useState(0);
  const [cursor, setCursor] = useState(0);
  const [sort, setSort] = useState({ column: 0, descending: false });
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState(false);
  const [pane, setPane] = useState<"table" | "help" | Row>("table");
  useEffect(() => store.subscribe(() => setVersion((v) => v + 1)), [store]);
  const shown = useMemo(() => {
    const test = rowFilter(filter);
    return sortRows(store.allRows().filter(test), sort.column, sort.descending, store.usage);
    // `version` is in the list: the store changed.
  }, [store, version, filter, sort]);
  // Ink scrolls a frame as tall as the terminal by a line: one line is left free.
  const body = Math.max(1, height - 5);
  const at = Math.min(cursor, Math.max(0, shown.length - 1));
  useInput((input, key) => {
    if (pane !== "table") {
      if (pane === "help" && (key.escape || input === "?" || input === "q")) setPane("table");
      return;
    }
    if (editing) {
      // A paste comes as one input: its text, and its newline ends the filter as Enter does.
      const text = input.replace(/[\r\n]/g, "");
      if (key.escape) setFilter("");
      else if (key.backspace || key.delete) setFilter((filter) => filter.slice(0, -1));
      else if (text && !key.ctrl && !key.meta) setFilter((filter) => filter + text);
      if (key.escape || key.return || text !== input) setEditing(false);
      setCursor(0);
      return;
    }
    const move = (to: number) => setCursor(Math.max(0, Math.min(shown.length - 1, to)));
    // A key held down (or typed faster than a frame) comes as one input: `jjjj`.
    const held = /^([jk])\1+$/.exec(input);
    if (held) return move(at + (held[1] === "j" ? input.length : -input.length));
    if (input === "q") exit();
    else if (key.downArrow || input === "j") move(at + 1);
    else if (key.upArrow || input === "k") move(at - 1);
    else if (key.pageDown) move(at + body);
    else if (key.pageUp) move(at - body);
    else if (input === "g") move(0);
    else if (input === "G") move(shown.length - 1);
    else if (key.leftArrow || input === "h")
      setSort((s) => ({ ...s, column: (s.column + COLUMNS.length - 1) % COLUMNS.length }));
    else if (key.rightArrow || input === "l")
      setSort((s) => ({ ...s, column: (s.column + 1) % COLUMNS.length }));
    else if (input === "s") setSort((s) => ({ ...s, descending: !s.descending }));
    else if (input === "/") setEditing(true);
    else if (key.escape) setFilter("");
    else if (input === "?") setPane("help");
    else if (key.return && shown[at]) setPane(shown[at]);
  });
  if (pane === "help") return h(Help, { width: columns });
  if (pane !== "table")
    return h(LogsPane, { row: pane, fleet, width: columns, height, back: () => setPane("table") });
  const top = Math.max(0, Math.min(at - Math.floor(body / 2), shown.length - body));
  const cells = layout(columns);
  const line = (row: Row) =>
    cells.map(({ index, width }) =>
      fit(COLUMNS[index]!.cell(row, store.usage.get(row.key)), width),
    );
  const header = cells
    .map(({ index, width }) => {
      const title =
        COLUMNS[index]!.title + (index === sort.column ? (sort.descending ? "↓" : "↑") : "");
      return fit(title, width);
    })
    .join(" ");
  return h(
    Box,
    { flexDirection: "column", width: columns, height: height - 1 },
    h(Clusters, { store }),
    h(Text, { bold: true, wrap: "truncate" }, header),
    // Each row one Text of one string: Ink lays out a node per element, and a frame of cells
    // as elements was ten times the nodes for the same text.
    ...shown.slice(top, top + body).map((row, i) => {
      const texts = line(row);
      const text = cells
        .map(({ index }, j) => {
          const title = COLUMNS[index]!.title;
          const cell = texts[j]! + (j < cells.length - 1 ? " " : "");
          if (title === "STATE") return paint(cell, row.state);
          return title === "HEALTH" ? paint(cell, row.health) : cell;
        })
        .join("");
      return h(Text, { key: row.key, inverse: top + i === at, wrap: "truncate" }, text);
    }),
    h(Box, { flexGrow: 1 }),
    h(
      Text,
      { wrap: "truncate" },
      editing || filter
        ? `/${escapeControls(filter)}${editing ? "▏" : ""}  ${shown.length} of ${store.count()}`
        : `${shown.length} containers · ?: keys · /: filter · Enter: logs · q: quit · read-only`,
    ),
  );
}

/** One line: each cluster and its state; a down one with its error. */
function Clusters({ store }: { store: FleetStore }): ReactNode {
  const parts = [...store.fleet.clusters.values()].map((cluster) =>
    h(
      Text,
      { key: cluster.name },
      `${cluster.name} `,
      colored(
        cluster.state === "live" ? "●" : `${cluster.state}`,
        cluster.state === "live" ? "running" : cluster.state,
      ),
      cluster.error ? ` (${cluster.error})` : "",
      "  ",
    ),
  );
  return h(Text, { wrap: "truncate" }, ...(parts.length ? parts : ["connecting…"]));
}

function Help({ width }: { width: number }): ReactNode {
  return h(
    Box,
    { flexDirection: "column", width },
    h(Text, { bold: true }, "docklens tui: keys (Esc or ? to go back)"),
    ...KEYS.map(([keys, what]) =>
      h(Text, { key: keys, wrap: "wrap" }, `${keys.padEnd(12)} ${what}`),
    ),
    h(Text, {}, ""),
    h(
      Text,
      { wrap: "wrap" },
      "Nothing here acts: no key starts, stops or removes anything. The view is read-only.",
    ),
  );
}
