// `docklens info` and `docklens version`: what docker info's and docker version's servers print,
// a section per cluster, or a Go template on each cluster's answer.
import type { ChalkInstance } from "chalk";
import type { InspectClusterResult, ListClustersResult } from "../../core/clusters/clusters.ts";
import type { VersionsResult } from "../../operations/system.ts";
import { bytesSize } from "./format.ts";
import { inspectView } from "./inspect.ts";

type Fields = Array<[string, unknown, number?]>;

/** Lines ` Name: value` as docker info and docker version indent them; empty values left out. */
const lines = (fields: Fields) =>
  fields
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([name, value, depth = 1]) => `${" ".repeat(depth)}${name}: ${String(value)}`);

/** docker info's Server section of one engine's `/info` body. */
function serverInfo(docker: Record<string, unknown>): string[] {
  return lines([
    ["Containers", docker.Containers],
    ["Running", docker.ContainersRunning, 2],
    ["Paused", docker.ContainersPaused, 2],
    ["Stopped", docker.ContainersStopped, 2],
    ["Images", docker.Images],
    ["Server Version", docker.ServerVersion],
    ["Storage Driver", docker.Driver],
    ["Logging Driver", docker.LoggingDriver],
    ["Cgroup Driver", docker.CgroupDriver],
    ["Cgroup Version", docker.CgroupVersion],
    ["Kernel Version", docker.KernelVersion],
    ["Operating System", docker.OperatingSystem],
    ["OSType", docker.OSType],
    ["Architecture", docker.Architecture],
    ["CPUs", docker.NCPU],
    ["Total Memory", bytesSize(docker.MemTotal as number | undefined)],
    ["Name", docker.Name],
    ["ID", docker.ID],
    ["Docker Root Dir", docker.DockerRootDir],
  ]);
}

/**
 * `docklens info`: each cluster's engine as docker info's Server section shows it (a failed one
 * says so on stderr), or `format` run on each `/info` body, a line each.
 */
export function createInfoView(
  format: string | undefined,
): (result: ListClustersResult | InspectClusterResult, colors: ChalkInstance) => string {
  return (result, colors) => {
    const records =
      "clusters" in result
        ? result.clusters
        : [{ ...result.cluster, docker: result.docker, error: result.error }];
    const answered = records.filter((record) => !record.error);
    if (format !== undefined)
      return inspectView(
        answered.map((record) => record.docker),
        format,
      );
    return answered
      .map((record) =>
        [`${colors.bold("Cluster:")} ${record.name}`, "Server:", ...serverInfo(record.docker)].join(
          "\n",
        ),
      )
      .join("\n\n");
  };
}

/**
 * `docklens version`: docklens as docker version's Client, then each engine as its Server; or
 * `format` on `{ Client, Server }` a cluster (`{{.Server.APIVersion}}`, Go's field names).
 */
export function createVersionView(
  format: string | undefined,
): (result: VersionsResult, colors: ChalkInstance) => string {
  return (result, colors) => {
    // docker's templates name the API version by its Go field, APIVersion.
    const servers = result.versions.map(({ cluster, version }) => {
      const server: Record<string, unknown> = { ...version, APIVersion: version.ApiVersion };
      return { cluster, server };
    });
    if (format !== undefined)
      return inspectView(
        servers.map(({ server }) => ({ Client: result.client, Server: server })),
        format,
      );
    const { client } = result;
    return [
      [
        "Client: docklens",
        ...lines([
          ["Version", client.Version],
          ["Node", client.Node],
          ["OS/Arch", `${client.Os}/${client.Arch}`],
        ]),
      ].join("\n"),
      ...servers.map(({ cluster, server }) =>
        [
          `${colors.bold("Server:")} ${cluster.name}`,
          ...lines([
            ["Version", server.Version],
            [
              "API version",
              `${String(server.ApiVersion)} (minimum version ${String(server.MinAPIVersion)})`,
            ],
            ["Go version", server.GoVersion],
            ["Git commit", server.GitCommit],
            ["Built", server.BuildTime],
            ["OS/Arch", `${String(server.Os)}/${String(server.Arch)}`],
          ]),
        ].join("\n"),
      ),
    ].join("\n\n");
  };
}
