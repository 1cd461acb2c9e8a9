import { describe, expect, it } from "vitest";
import { engineName } from "../../src/core/clusters/clusters.ts";

describe("engineName: the engine as docker version heads its part", () => {
  it.each([
    [
      "Docker's",
      {
        Platform: { Name: "" },
        Components: [
          { Name: "Engine", Version: "20.10.24+dfsg1" },
          { Name: "containerd", Version: "1.6.20~ds1" },
        ],
        Version: "20.10.24+dfsg1",
      },
      { name: "Docker Engine", version: "20.10.24+dfsg1" },
    ],
    [
      "Podman's",
      {
        Platform: { Name: "linux/amd64/debian-12" },
        Components: [
          { Name: "Podman Engine", Version: "4.3.1" },
          { Name: "Conmon", Version: "conmon version 2.1.6" },
        ],
        Version: "4.3.1",
      },
      { name: "Podman Engine", version: "4.3.1" },
    ],
    [
      "one without components",
      { Version: "17.06.0-ce" },
      { name: "Docker Engine", version: "17.06.0-ce" },
    ],
    ["one that says nothing", {}, { name: "Docker Engine", version: "" }],
  ])("names %s", (_, version, expected) => {
    expect(engineName(version)).toEqual(expected);
  });
});
