import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";

const examples = join(import.meta.dirname, "../../examples");

describe("the example configs", () => {
  it("docklens.config.yaml is valid and means what its comments say", async () => {
    const config = await loadConfig({ configPath: join(examples, "docklens.config.yaml") });
    expect(config.clusters.map((c) => [c.id, c.name, c.protocol, c.port, c.timeoutMs])).toEqual([
      [1, "local", "unix", 0, 5000],
      [10, "build", "http", 2375, 2000],
      [3, "prod", "https", 2376, 5000],
      [4, "edge", "ssh", 22, 5000],
    ]);
  });

  it(".docklensrc.json is valid", async () => {
    const config = await loadConfig({ configPath: join(examples, ".docklensrc.json") });
    expect(config.clusters.map((c) => c.name)).toEqual(["local", "lab"]);
  });
});
