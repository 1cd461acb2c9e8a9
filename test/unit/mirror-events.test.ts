import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { touchedContainer } from "../../src/core/hub/mirror-upkeep.ts";
import { sinceAfterEvent, type EngineEvent } from "../../src/core/hub/event-hub.ts";
import { parseEngineJson } from "../../src/core/json.ts";

/**
 * The mirror's event model driven by /events sequences recorded from the engines
 * (scripts/record-events.mjs): each step's events touch the container it acted on and no other,
 * and a step that changes nothing a list item shows (an exec) touches none.
 */
interface Recording {
  engine: string;
  steps: Array<{ step: string; container: string; events: EngineEvent[] }>;
}
const recordings = ["docker", "podman"].map(
  (name) =>
    parseEngineJson(
      readFileSync(join(import.meta.dirname, `../fixtures/events/${name}.json`), "utf8"),
    ) as Recording,
);
/** Steps whose events change nothing a list item shows. */
const QUIET_STEPS = new Set(["exec"]);

describe.each(recordings.map((recording) => [recording.engine, recording] as const))(
  "%s's recorded events",
  (_, recording) => {
    it.each(recording.steps.map((step) => [step.step, step] as const))(
      "%s: re-reads only the container it acted on",
      (name, { container, events }) => {
        expect(events.length).toBeGreaterThan(0);
        const touched = new Set(events.map(touchedContainer).filter(Boolean));
        expect([...touched]).toEqual(QUIET_STEPS.has(name) ? [] : [container]);
      },
    );

    it("asks, after a reconnection, for what came after each event and not for it again", () => {
      for (const { events } of recording.steps)
        for (const event of events) {
          const [seconds, nanos] = sinceAfterEvent(event)!.split(".").map(BigInt);
          const since = seconds! * 1_000_000_000n + (nanos ?? 0n);
          expect(since).toBeGreaterThan(BigInt(event.timeNano as bigint | number));
        }
    });
  },
);
