import { expect, it } from "vitest";
import { followMergedLogs } from "../../src/core/containers/follow-merged-logs.ts";
import { loadFleet } from "../../src/core/engine/fleet.ts";
import { parseFilters } from "../../src/core/engine/filters.ts";
import { engines, withContainer } from "./helpers.ts";

// A container writing 60 KB lines to a reader that takes one each 20 ms: its backlog passes
// 16 MiB long before 10,000 lines.
it("a slow reader of merged logs is cut at its bytes, not only its lines", async () => {
  const name = "lens-spew";
  const args = [
    "--name",
    name,
    "local/busybox:1",
    "sh",
    "-c",
    "yes $(head -c 60000 /dev/zero | tr '\\0' a)",
  ];
  await withContainer(engines.hostA, args, async () => {
    const fleet = await loadFleet({ configPath: engines.configPath });
    const controller = new AbortController();
    try {
      const lines = await followMergedLogs({
        fleet,
        clusters: ["alpha"],
        filters: parseFilters("containers", [`name=^/?${name}$`]),
        signal: controller.signal,
        query: { tail: 0 },
      });
      let got = 0;
      const error = await (async () => {
        try {
          for await (const line of lines) {
            expect(line).toBeDefined();
            got++;
            await new Promise((r) => setTimeout(r, 20));
          }
        } catch (e) {
          return e;
        }
      })();
      expect(got).toBeGreaterThan(0);
      expect(error).toMatchObject({ code: "CLIENT_TOO_SLOW" });
      expect((error as Error).message).toMatch(/16 MiB/);
    } finally {
      controller.abort();
      fleet.close();
    }
  });
}, 60_000);
