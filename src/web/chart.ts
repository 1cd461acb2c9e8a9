// The CPU and memory graph of a container, drawn by uPlot on a canvas: the live two minutes of
// its page's Stats (StatsPanel) and the hours history kept (HistoryChart) look the same.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { clockTicks, TIME_STEPS } from "./format.ts";

/** Ticks of a chart of hours or days: whole minutes and hours past the live graph's steps. */
const LONG_STEPS = [...TIME_STEPS, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** The series a chart draws: Unix seconds, CPU % and memory % (null where none was sampled). */
export type CpuMemoryData = [number[], Array<number | null>, Array<number | null>];

/**
 * A CPU % and memory % chart in `box`, as wide as the box (at most 900 px), in the page's
 * colours; time on a 24-hour clock in whole seconds, never uPlot's 0.2 s ticks.
 */
export function cpuMemoryChart(box: HTMLElement, data: CpuMemoryData): uPlot {
  const style = getComputedStyle(box);
  const [text, accent, second] = ["--text", "--accent", "--accent-2"].map((name) =>
    style.getPropertyValue(name).trim(),
  );
  const axis = { stroke: text, grid: { stroke: "rgba(128,128,128,0.2)" } };
  const time = { ...axis, space: 70, incrs: LONG_STEPS, values: clockTicks };
  return new uPlot(
    {
      width: Math.min(box.clientWidth || 600, 900),
      height: 180,
      scales: { y: { range: (_u, _min, max) => [0, Math.max(5, max)] } },
      axes: [time, { ...axis, values: (_u, ticks) => ticks.map((tick) => `${tick}%`) }],
      series: [
        {},
        { label: "CPU %", stroke: accent, width: 2 },
        { label: "Memory %", stroke: second, width: 2 },
      ],
    },
    data,
    box,
  );
}
