// `docklens info` and `docklens version`, as docker's: the engine's `/info` (the `docker` object
// of a cluster's record, D3) and its `/version`, of every cluster or of the one named.
import pkg from "../../package.json" with { type: "json" };
import type { InspectClusterResult, ListClustersResult } from "../core/clusters/clusters.ts";
import type { ReadEngineVersionsResult } from "../core/engine/engine-version.ts";
import type { Operation } from "./operation.ts";
import { acrossHooks, defineCommand } from "./parts.ts";

const clusters = () => import("../core/clusters/clusters.ts");

const FORMAT_OPTION = (example: string) => ({
  flags: "-f, --format <template>",
  description: `a Go template on each cluster's answer, a line each (${example})`,
});

/** `version`'s body: docklens itself, and each cluster's engine `/version` or why not. */
export interface VersionsResult extends ReadEngineVersionsResult {
  client: { Version: string; Node: string; Os: string; Arch: string };
}

/** `docklens info [cluster]`: mirrors `/detail/cluster/:clusterid` or `/list/cluster`. */
export const info: Operation = {
  command: defineCommand({
    name: ["info"],
    description: "each engine's information, like docker info (--json: the cluster route's body)",
    args: [["[cluster]", "cluster name or id (default: every cluster)"]],
    options: [FORMAT_OPTION("{{.ServerVersion}} {{.Driver}}")],
    examples: [
      ["docklens info local"],
      ["docklens info --format '{{.Name}} {{.ServerVersion}} {{.NCPU}}'"],
    ],
    call: async ([ref]: [string | undefined], _, coreOptions) =>
      ref === undefined
        ? (await clusters()).listClusters(coreOptions)
        : (await clusters()).inspectCluster(ref, coreOptions),
    hooks: ([ref]) => {
      type Body = ListClustersResult | InspectClusterResult;
      // Each cluster whose engine failed says why, as `clusters` does; one named fails with it.
      return acrossHooks(ref === undefined ? [] : [ref], (result: Body) =>
        ("clusters" in result
          ? result.clusters
          : [{ ...result.cluster, error: result.error }]
        ).flatMap(({ id, name, error }) => (error ? [{ cluster: { id, name }, error }] : [])),
      );
    },
  }),
};

/** `docklens version [cluster]`: docklens's version, and each engine's `/version`. */
export const version: Operation = {
  command: defineCommand({
    name: ["version"],
    description: "docklens's version and each engine's, like docker version",
    args: [["[cluster]", "cluster name or id (default: every cluster)"]],
    options: [FORMAT_OPTION("{{.Client.Version}} {{.Server.Version}}")],
    examples: [
      ["docklens version"],
      ["docklens version --format '{{.Server.Version}} {{.Server.APIVersion}}'"],
    ],
    call: async ([ref]: [string | undefined], _, coreOptions): Promise<VersionsResult> => ({
      client: {
        Version: pkg.version,
        Node: process.version,
        Os: process.platform,
        Arch: process.arch,
      },
      ...(await (
        await import("../core/engine/engine-version.ts")
      ).readEngineVersions({ ...coreOptions, clusters: ref === undefined ? [] : [ref] })),
    }),
    hooks: ([ref]) => acrossHooks(ref === undefined ? [] : [ref]),
  }),
};
