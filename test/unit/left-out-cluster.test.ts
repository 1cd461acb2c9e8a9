import { describe, expect, it } from "vitest";
import { withCluster } from "../../src/cli/left-out-cluster.ts";
import type { ClusterConfig } from "../../src/core/config/cluster-config.ts";
import { inspect } from "../../src/operations/inspect.ts";

const cluster = (id: number, name: string) => ({ id, name }) as ClusterConfig;
const spec = inspect.command!;
/** `inspect` as commander hands its arguments over: the cluster, then the list of names. */
const given = (...words: string[]) => [words[0], words.slice(1)];

describe("withCluster: a leading cluster left out", () => {
  it.each([
    // One cluster: every word is a name, as docker inspect's, unless the first names the cluster.
    [[cluster(1, "alpha")], ["web"], ["alpha", ["web"]]],
    [[cluster(1, "alpha")], ["web", "job"], ["alpha", ["web", "job"]]],
    [[cluster(1, "alpha")], ["alpha", "web", "job"], ["alpha", ["web", "job"]]],
    [[cluster(1, "alpha")], ["1", "web"], ["1", ["web"]]],
    // Several: the first word is the cluster.
    [
      [cluster(1, "alpha"), cluster(2, "bravo")],
      ["bravo", "web", "job"],
      ["bravo", ["web", "job"]],
    ],
  ])("%j: inspect %j", (clusters, words, expected) => {
    expect(withCluster(spec, given(...words), clusters, {})).toEqual(expected);
  });

  it("of several clusters, one name alone asks for the cluster", () => {
    const clusters = [cluster(1, "alpha"), cluster(2, "bravo")];
    expect(() => withCluster(spec, given("web"), clusters, {})).toThrow(/name a cluster/);
  });
});
