// The bodies that describe clusters: each one's engine info, its detail, and the engines'
// events across clusters.
import {
  arrayOf,
  bool,
  closed,
  int,
  nullableStrings,
  obj,
  ref,
  str,
  type Keys,
  type Schema,
} from "../schema.ts";

const SOURCE = {
  type: "string",
  enum: ["config", "context", "discovered", "default", "node"],
  description:
    "Where the cluster came from: the config file, a docker CLI context, a local socket found, " +
    "the engine the docker CLI would use, or another docklens serve (a node)",
} as const;

const CLUSTER_FIELDS = { id: int, name: str, fullname: str, icon: str, host: str, port: int };
const keysOf = <P extends object>(properties: P) => Object.keys(properties) as Keys<P>;

/** A cluster listed, a cluster's detail, and the lines of `/events`. */
export const CLUSTER_SCHEMAS = {
  DockerInfo: {
    ...obj(
      {
        ID: str,
        Name: str,
        ServerVersion: str,
        OperatingSystem: str,
        OSVersion: str,
        OSType: str,
        Architecture: str,
        KernelVersion: str,
        NCPU: int,
        MemTotal: int,
        Containers: int,
        ContainersRunning: int,
        ContainersPaused: int,
        ContainersStopped: int,
        Images: int,
        Volumes: int,
        Driver: str,
        DockerRootDir: str,
        LoggingDriver: str,
        CgroupDriver: str,
        CgroupVersion: str,
        DefaultRuntime: str,
        SystemTime: str,
        Labels: nullableStrings,
        SecurityOptions: nullableStrings,
        Warnings: nullableStrings,
      },
      [],
    ),
    description:
      "The engine's GET /info body plus Volumes (its number of volumes), or {} beside error when the engine failed",
  },
  Cluster: obj(
    {
      ...CLUSTER_FIELDS,
      source: SOURCE,
      docker: ref("DockerInfo"),
      error: ref("ErrorBody"),
    },
    [...keysOf(CLUSTER_FIELDS), "docker", "source"],
  ),
  ClusterList: obj({ clusters: arrayOf(ref("Cluster")) }),
  ClusterDetail: obj(
    {
      cluster: obj(
        {
          ...CLUSTER_FIELDS,
          protocol: { type: "string", enum: ["unix", "http", "https", "ssh"] },
          tls: bool,
          source: SOURCE,
          context: { type: "string", description: "The docker context it came from" },
        },
        [...keysOf(CLUSTER_FIELDS), "protocol", "tls", "source"],
      ),
      docker: ref("DockerInfo"),
      engine: obj({ name: str, version: str }),
      error: ref("ErrorBody"),
    },
    ["cluster", "docker"],
  ),
  EventLine: {
    oneOf: [
      closed(
        {
          cluster: ref("ClusterRef"),
          status: { type: "string", enum: ["disconnected", "reconnected"] },
          error: ref("ErrorBody"),
        },
        ["cluster", "status"],
      ),
      closed(
        {
          cluster: ref("ClusterRef"),
          status: {
            type: "string",
            enum: ["truncated"],
            description:
              "The engine keeps only its last events (Docker: 256); they do not reach back to `since`",
          },
          oldest: {
            type: "number",
            description: "Unix seconds of the oldest event the engine still keeps",
          },
        },
        ["cluster", "status", "oldest"],
      ),
      obj({ cluster: ref("ClusterRef"), Type: str, Action: str, time: int, timeNano: int }, [
        "cluster",
        "Type",
        "Action",
      ]),
    ],
  },
} as const satisfies Record<string, Schema>;
