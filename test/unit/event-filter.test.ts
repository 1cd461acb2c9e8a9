import { describe, expect, it } from "vitest";
import { matchesEventFilters } from "../../src/core/hub/event-filter.ts";

// Events as Docker and Podman send them (recorded from the test engines), trimmed to what filters read.
const start = {
  Type: "container",
  Action: "start",
  scope: "local",
  Actor: { ID: "3f2a9c", Attributes: { name: "web", image: "local/busybox:1", tier: "front" } },
};
const health = { ...start, Action: "health_status: healthy" };
const podmanDied = {
  Type: "container",
  Action: "died",
  Actor: { ID: "9e1d", Attributes: { name: "pod-web", image: "localhost/local/busybox:1" } },
};
const connect = {
  Type: "network",
  Action: "connect",
  scope: "local",
  Actor: { ID: "n42", Attributes: { name: "bridge", container: "3f2a9c", type: "bridge" } },
};
const pulled = {
  Type: "image",
  Action: "pull",
  Actor: { ID: "local/busybox:1", Attributes: { name: "local/busybox:1" } },
};

describe("matchesEventFilters: docker's event filters, as the engine applies them", () => {
  it.each([
    ["no filters", start, undefined, true],
    ["type", start, { type: ["container"] }, true],
    ["another type", connect, { type: ["container"] }, false],
    ["event exact", start, { event: ["start"] }, true],
    ["event exact, not a prefix", start, { event: ["sta"] }, false],
    ["health_status by prefix", health, { event: ["health_status"] }, true],
    ["health_status exact", health, { event: ["health_status: healthy"] }, true],
    ["start does not match health_status", health, { event: ["start"] }, false],
    ["Podman's died", podmanDied, { event: ["died", "start"] }, true],
    ["container by name", start, { container: ["web"] }, true],
    ["container by id prefix", start, { container: ["3f2"] }, true],
    ["container by name prefix", start, { container: ["we"] }, true],
    ["container filter leaves out a network's event", connect, { container: ["web"] }, false],
    ["network by name", connect, { network: ["bridge"] }, true],
    ["image with tag", start, { image: ["local/busybox:1"] }, true],
    ["image without tag", start, { image: ["local/busybox"] }, true],
    ["another image", start, { image: ["alpine"] }, false],
    ["an image event by name", pulled, { image: ["local/busybox"] }, true],
    ["label key", start, { label: ["tier"] }, true],
    ["label key=value", start, { label: ["tier=front"] }, true],
    ["label other value", start, { label: ["tier=back"] }, false],
    ["labels all wanted", start, { label: ["tier=front", "missing"] }, false],
    ["scope", connect, { scope: ["local"] }, true],
    ["scope swarm", connect, { scope: ["swarm"] }, false],
    ["two keys, both match", start, { type: ["container"], container: ["web"] }, true],
    ["two keys, one fails", start, { type: ["container"], container: ["db"] }, false],
  ])("%s", (_, event, filters, expected) => {
    expect(matchesEventFilters(event, filters)).toBe(expected);
  });
});
