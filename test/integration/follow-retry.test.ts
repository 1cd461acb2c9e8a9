import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followMergedLogs } from "../../src/core/containers/follow-merged-logs.ts";
import { type Fleet } from "../../src/core/engine/fleet.ts";
import { containerForFile, engines, readInto } from "./helpers.ts";
import { linkedFleet, type LinkProxy } from "./proxy.ts";
import { until } from "../support/until.ts";

/** A merged-log follow that failed is retried, from after its last line (issue 24 item 3). */
let proxy: LinkProxy;
let fleet: Fleet;
const name = `retry-${process.pid}`;

beforeAll(async () => {
  ({ proxy, fleet } = await linkedFleet("follow-retry.json"));
});
afterAll(async () => {
  fleet?.close();
  await proxy?.close().catch(() => undefined);
});
containerForFile(engines.hostA, [
  "--name",
  name,
  "-l",
  "docklens-test=retry",
  "local/busybox:1",
  "sh",
  "-c",
  "i=0; while true; do echo line $i; i=$((i+1)); sleep 0.1; done",
]);

describe("followed merged logs", () => {
  it("retry a follow whose engine stream failed, say so, and go on after its last line", async () => {
    const controller = new AbortController();
    const stream = await followMergedLogs({
      fleet,
      clusters: ["linked"],
      filters: { name: [name] },
      query: { tail: 0 },
      windowMs: 50,
      signal: controller.signal,
    });
    const seen: any[] = [];
    const reading = readInto(stream, seen).catch(() => undefined);
    expect(await until(() => seen.some((item) => "text" in item))).toBe(true);
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await proxy.restore();
    const retried = () => seen.findIndex((item) => item.status === "retrying");
    expect(await until(() => retried() !== -1)).toBe(true);
    expect(seen[retried()]).toMatchObject({
      container: { name },
      error: { code: expect.stringMatching(/^ENGINE_/) },
    });
    expect(await until(() => seen.slice(retried()).some((item) => "text" in item))).toBe(true);
    controller.abort();
    await reading;
    // From after its last line: no line comes twice.
    const texts = seen.filter((item) => "text" in item).map((item) => item.text);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
