// A container's logs in the TUI: followed from the fleet (shared with any other follower of it),
// grepped with RE2 as the logs route does, timestamps shown or not. Esc goes back.
import { createElement as h, useEffect, useState, type ReactNode } from "react";
import { Box, Text, useInput } from "ink";
import type { Fleet as DocklensFleet } from "../core/engine/fleet.ts";
import { followContainerLogs } from "../core/containers/logs.ts";
import { compileGrep } from "../core/containers/grep.ts";
import type { OutputLine } from "../core/containers/container-output.ts";
import { escapeControls } from "../cli/render/escape.ts";
import type { Row } from "./model.ts";

/** Lines kept of a followed container: older ones are dropped. */
const KEEP = 5000;

interface LogsPaneProps {
  row: Row;
  fleet: DocklensFleet;
  width: number;
  height: number;
  back: () => void;
}

/** The logs of `row`'s container, followed until Esc. */
export function LogsPane({ row, fleet, width, height, back }: LogsPaneProps): ReactNode {
  const [lines, setLines] = useState<OutputLine[]>([]);
  const [problem, setProblem] = useState("");
  const [times, setTimes] = useState(false);
  const [scroll, setScroll] = useState(0);
  const [grep, setGrep] = useState<{
    text: string;
    editing: boolean;
    test: (text: string) => boolean;
  }>({
    text: "",
    editing: false,
    test: () => true,
  });
  useEffect(() => {
    const stop = new AbortController();
    let held: OutputLine[] = [];
    let timer: NodeJS.Timeout | undefined;
    void (async () => {
      const stream = await followContainerLogs(
        { cluster: String(row.clusterId), name: row.id },
        { fleet, query: { tail: 500, timestamps: true }, signal: stop.signal },
      );
      for await (const line of stream) {
        held.push(line);
        timer ??= setTimeout(() => {
          timer = undefined;
          held = held.slice(-KEEP);
          setLines([...held]);
        }, 50);
      }
      setProblem("the container stopped: its logs end here");
    })().catch((error: Error) => {
      if (!stop.signal.aborted) setProblem(escapeControls(error.message));
    });
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [row, fleet]);
  const body = Math.max(1, height - 4);
  useInput((input, key) => {
    if (grep.editing) {
      const text = input.replace(/[\r\n]/g, "");
      if (key.backspace || key.delete) setGrep({ ...grep, text: grep.text.slice(0, -1) });
      else if (text && !key.ctrl && !key.escape) setGrep({ ...grep, text: grep.text + text });
      if (key.return || key.escape || text !== input) {
        const pattern = key.escape ? "" : grep.text + text;
        compileGrep(pattern).then(
          (test) => setGrep({ text: pattern, editing: false, test }),
          (error: Error) => {
            setProblem(escapeControls(error.message));
            setGrep({ ...grep, editing: false });
          },
        );
      }
      return;
    }
    if (key.escape || input === "q") back();
    else if (input === "/") setGrep({ ...grep, editing: true });
    else if (input === "t") setTimes((on) => !on);
    else if (input === "f" || input === "G") setScroll(0);
    else if (key.upArrow || input === "k") setScroll((n) => n + 1);
    else if (key.downArrow || input === "j") setScroll((n) => Math.max(0, n - 1));
    else if (key.pageUp) setScroll((n) => n + body);
    else if (key.pageDown) setScroll((n) => Math.max(0, n - body));
  });
  const matching = lines.filter((line) => grep.test(line.text));
  // Following while at the end (scroll 0): new lines come in at the bottom.
  const follow = scroll === 0;
  const end = Math.max(body, matching.length - scroll);
  const visible = matching.slice(Math.max(0, end - body), Math.max(0, end));
  const status = grep.editing
    ? `grep: ${grep.text}▏`
    : `${follow ? "following" : "paused (f: follow)"} · ${grep.text ? `grep ${grep.text} · ` : ""}` +
      `t: timestamps · /: grep · Esc: back${problem ? ` · ${problem}` : ""}`;
  return h(
    Box,
    { flexDirection: "column", width, height: height - 1 },
    h(Text, { bold: true, wrap: "truncate" }, `logs of ${row.name} on ${row.cluster}`),
    ...visible.map((line, i) =>
      h(
        Text,
        { key: i, wrap: "truncate", ...(line.stream === "stderr" ? { dimColor: true } : {}) },
        (times && line.time ? `${line.time} ` : "") + escapeControls(line.text),
      ),
    ),
    h(Box, { flexGrow: 1 }),
    h(Text, { wrap: "truncate", inverse: true }, escapeControls(status)),
  );
}
