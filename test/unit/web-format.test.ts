import { describe, expect, it } from "vitest";
import {
  clockTicks,
  containerStatus,
  eventTime,
  humanSize,
  stateTone,
  TIME_STEPS,
} from "../../src/web/format.ts";

describe("the page's words and figures", () => {
  // What `docker images` prints for these sizes (go-units' HumanSizeWithPrecision, 3 digits).
  it.each([
    [0, "0B"],
    [512, "512B"],
    [1981430, "1.98MB"], // busybox (the page said 1.9 MiB)
    [4261574, "4.26MB"],
    [2890, "2.89kB"],
    [1125000, "1.12MB"], // an exact tie goes to even, as Go's %g does
    [1135000, "1.14MB"],
    [999600, "1e+03kB"],
    [77_800_000, "77.8MB"],
    [1_230_000_000, "1.23GB"],
    [100_000_000, "100MB"],
    [undefined, ""],
  ])("humanSize(%s) is %s, as the docker CLI says", (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });
});

describe("a container page's badge", () => {
  // The list's colours for what docker ps says (stateTone), the page's from inspect's State.
  it.each([
    [{ Status: "running", Health: { Status: "unhealthy" } }, "bad"],
    [{ Status: "running", Health: { Status: "healthy" } }, "good"],
    [{ Status: "running", Health: { Status: "" } }, "good"],
    [{ Status: "running", Health: { Status: "starting" } }, "warn"],
    [{ Status: "paused", Paused: true }, "warn"],
    [{ Status: "exited", ExitCode: 3 }, "bad"],
    [{ Status: "exited", ExitCode: 0 }, "idle"],
    [{ Status: "created" }, "warn"],
    [{ Status: "dead" }, "bad"],
  ])("%j is %s", (state, tone) => {
    expect(stateTone(state.Status, containerStatus(state))).toBe(tone);
  });
});

describe("an event's time", () => {
  it("has its date and a 24-hour clock", () => {
    expect(eventTime(new Date(2026, 10, 25, 13, 5, 9))).toBe("2026-11-25 13:05:09");
  });
});

describe("the stats graph's time axis", () => {
  it("ticks whole seconds at least, labelled as a 24-hour clock", () => {
    expect(TIME_STEPS.every((step) => Number.isInteger(step) && step >= 1)).toBe(true);
    const at = new Date(2026, 10, 25, 13, 5, 9).getTime() / 1000;
    expect(clockTicks(undefined, [at, at + 5])).toEqual(["13:05:09", "13:05:14"]);
  });
});
