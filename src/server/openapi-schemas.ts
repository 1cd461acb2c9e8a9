// The JSON Schemas of the response bodies, for the OpenAPI document (openapi.ts).
import { ERROR_CODES } from "../core/errors.ts";

export type Schema = Record<string, unknown>;

export const str = { type: "string" };

export const int = { type: "integer" };

export const bool = { type: "boolean" };

export const obj = (
  properties: Record<string, Schema>,
  required = Object.keys(properties),
  extra = true,
): Schema => ({
  type: "object",
  properties,
  required,
  ...(extra ? {} : { additionalProperties: false }),
});

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const arrayOf = (items: Schema) => ({ type: "array", items });

const stringMap = { type: "object", additionalProperties: { type: "string" } };

export const nullable = (type: string) => ({ type: [type, "null"] });

/** An item of an across-cluster list: the item `schema` with the cluster it is in. */
const inCluster = (schema: string) => ({
  allOf: [ref(schema), obj({ cluster: ref("ClusterRef") })],
});

const SOURCE = {
  type: "string",
  enum: ["config", "context", "discovered", "default"],
  description:
    "Where the cluster came from: the config file, a docker CLI context, a local socket found, " +
    "or the engine the docker CLI would use",
};

const CLUSTER_FIELDS = { id: int, name: str, fullname: str, icon: str, host: str, port: int };

/** Response bodies, with the fields and types docs/http-interface.md gives each route. */
export const SCHEMAS: Record<string, Schema> = {
  ErrorBody: obj({ code: { type: "string", enum: ERROR_CODES }, message: str }, undefined, false),
  Error: obj({ error: ref("ErrorBody") }, undefined, false),
  Cluster: obj(
    {
      ...CLUSTER_FIELDS,
      source: SOURCE,
      docker: {
        type: "object",
        description:
          "The engine's GET /info body plus Volumes (its number of volumes), or {} beside error when the engine failed",
      },
      error: ref("ErrorBody"),
    },
    [...Object.keys(CLUSTER_FIELDS), "docker"],
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
        [...Object.keys(CLUSTER_FIELDS), "protocol", "tls", "source"],
      ),
      docker: { type: "object" },
      error: ref("ErrorBody"),
    },
    ["cluster", "docker"],
  ),
  Endpoint: obj(
    {
      IPAMConfig: nullable("object"),
      Links: nullable("array"),
      Aliases: nullable("array"),
      NetworkID: str,
      EndpointID: str,
      Gateway: str,
      IPAddress: str,
      IPPrefixLen: int,
      IPv6Gateway: str,
      GlobalIPv6Address: str,
      GlobalIPv6PrefixLen: int,
      MacAddress: str,
      DriverOpts: nullable("object"),
    },
    [
      "NetworkID",
      "EndpointID",
      "Gateway",
      "IPAddress",
      "IPPrefixLen",
      "IPv6Gateway",
      "GlobalIPv6Address",
      "GlobalIPv6PrefixLen",
      "MacAddress",
    ],
  ),
  Container: obj({
    Id: str,
    Names: arrayOf({ type: "string", pattern: "^/" }),
    Image: str,
    ImageID: str,
    Command: str,
    Created: { type: "string", format: "date-time" },
    Ports: arrayOf(
      obj({ PrivatePort: int, Type: str, PublicPort: int, IP: str }, ["PrivatePort", "Type"]),
    ),
    Labels: stringMap,
    State: str,
    Status: str,
    HostConfig: obj({ NetworkMode: str }),
    NetworkSettings: obj({ Networks: { type: "object", additionalProperties: ref("Endpoint") } }),
    Mounts: arrayOf({ type: "object" }),
  }),
  ContainerList: obj({ containers: arrayOf(ref("Container")), running: arrayOf(ref("Container")) }),
  Network: obj({
    Name: str,
    Id: str,
    Created: { type: "string", format: "date-time" },
    Scope: str,
    Driver: str,
    EnableIPv6: bool,
    IPAM: obj(
      {
        Driver: str,
        Options: nullable("object"),
        Config: { type: ["array", "null"], items: obj({ Subnet: str, Gateway: str }, ["Subnet"]) },
      },
      ["Driver"],
    ),
    Internal: bool,
    Attachable: bool,
    Ingress: bool,
    ConfigFrom: obj({ Network: str }),
    ConfigOnly: bool,
    Containers: { type: "object" },
    Options: stringMap,
    Labels: stringMap,
  }),
  NetworkList: obj({ networks: arrayOf(ref("Network")) }),
  Volume: obj(
    {
      CreatedAt: { type: "string", format: "date-time" },
      Driver: str,
      Labels: stringMap,
      Mountpoint: str,
      Name: str,
      Options: { type: ["object", "null"], additionalProperties: { type: "string" } },
      Scope: str,
    },
    ["Driver", "Labels", "Mountpoint", "Name", "Options", "Scope"],
  ),
  VolumeList: obj({ Volumes: arrayOf(ref("Volume")) }, undefined, false),
  RouteIndex: obj({
    routes: arrayOf(obj({ path: str, methods: arrayOf(str), params: arrayOf(str) })),
  }),
  ContainerDetail: obj({
    Id: str,
    Created: { type: "string", format: "date-time" },
    Path: str,
    Args: arrayOf(str),
    State: obj({
      Status: str,
      Running: bool,
      Paused: bool,
      Restarting: bool,
      OOMKilled: bool,
      Dead: bool,
      ExitCode: int,
      Error: str,
      StartedAt: str,
      FinishedAt: str,
    }),
    Image: str,
    Name: str,
    Mounts: arrayOf({ type: "object" }),
    Config: { type: "object", description: "Env values whose names look secret read <redacted>" },
    NetworkSettings: { type: "object" },
  }),
  Health: obj({ status: { const: "ok" } }),
  LogLine: obj(
    { stream: { type: "string", enum: ["stdout", "stderr"] }, time: nullable("string"), text: str },
    undefined,
    false,
  ),
  LogLines: obj({ lines: arrayOf(ref("LogLine")) }, undefined, false),
  AttachLine: obj(
    { stream: { type: "string", enum: ["stdout", "stderr"] }, text: str },
    undefined,
    false,
  ),
  Processes: obj({ Titles: arrayOf(str), Processes: arrayOf(arrayOf(str)) }, undefined, false),
  StatsSample: obj(
    {
      summary: obj(
        Object.fromEntries(
          [
            "cpuPercent",
            "memoryUsage",
            "memoryLimit",
            "memoryPercent",
            "netRx",
            "netTx",
            "blockRead",
            "blockWrite",
            "pids",
          ].map((key) => [key, { type: "number", minimum: 0 }]),
        ),
        undefined,
        false,
      ),
      raw: { type: "object", description: "The engine's stats body" },
    },
    undefined,
    false,
  ),
  ImageDetail: obj(
    { Id: str, RepoTags: nullable("array"), Created: str, Size: int, Config: nullable("object") },
    ["Id"],
  ),
  Image: obj(
    {
      Id: str,
      ParentId: str,
      RepoTags: nullable("array"),
      RepoDigests: nullable("array"),
      Created: { type: "string", format: "date-time" },
      Size: int,
      SharedSize: int,
      Labels: nullable("object"),
      Containers: {
        type: "integer",
        minimum: 0,
        description: "Containers that use it, counted by docklens",
      },
    },
    ["Id", "Created", "Size", "Containers"],
  ),
  ImageList: obj({ images: arrayOf(ref("Image")) }, undefined, false),
  ClusterRef: obj({ id: int, name: str }, undefined, false),
  ClusterError: obj({ cluster: ref("ClusterRef"), error: ref("ErrorBody") }, undefined, false),
  AllContainerList: obj(
    {
      containers: arrayOf(inCluster("Container")),
      running: arrayOf(inCluster("Container")),
      errors: arrayOf(ref("ClusterError")),
    },
    undefined,
    false,
  ),
  AllImageList: obj(
    { images: arrayOf(inCluster("Image")), errors: arrayOf(ref("ClusterError")) },
    undefined,
    false,
  ),
  Drift: obj(
    {
      images: arrayOf(
        obj(
          {
            reference: str,
            clusters: arrayOf(
              obj({ cluster: ref("ClusterRef"), imageIds: arrayOf(str) }, undefined, false),
            ),
            drift: bool,
          },
          undefined,
          false,
        ),
      ),
      engines: arrayOf(obj({ cluster: ref("ClusterRef"), version: str }, undefined, false)),
      errors: arrayOf(ref("ClusterError")),
    },
    undefined,
    false,
  ),
  OpenApi: { type: "object", description: "This document" },
  Metrics: { type: "string", description: "Prometheus text exposition format 0.0.4" },
  EventLine: {
    oneOf: [
      obj(
        {
          cluster: ref("ClusterRef"),
          status: { type: "string", enum: ["disconnected", "reconnected"] },
          error: ref("ErrorBody"),
        },
        ["cluster", "status"],
        false,
      ),
      obj({ cluster: ref("ClusterRef"), Type: str, Action: str, time: int, timeNano: int }, [
        "cluster",
        "Type",
        "Action",
      ]),
      obj({ error: ref("ErrorBody") }, undefined, false),
    ],
  },
};
