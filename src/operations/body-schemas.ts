// The JSON Schemas of every response body, in one place: the OpenAPI document's components
// (server/openapi.ts) are these, the bodies of the many-container routes among them. They keep
// their literal types, so that a test derives the body types from them (json-schema-to-ts) and
// checks them both ways against the library's published body types (test/unit/body-schemas.test.ts).
import { ALERT_TRIGGERS } from "../core/config/alert-triggers.ts";
import { ERROR_CODES } from "../core/errors.ts";
import {
  arrayOf,
  bool,
  closed,
  counts,
  inCluster,
  int,
  nullable,
  obj,
  ref,
  str,
  stringMap,
  type Keys,
  type Schema,
} from "./schema.ts";

const SOURCE = {
  type: "string",
  enum: ["config", "context", "discovered", "default", "node"],
  description:
    "Where the cluster came from: the config file, a docker CLI context, a local socket found, " +
    "the engine the docker CLI would use, or another docklens serve (a node)",
} as const;

const CLUSTER_FIELDS = { id: int, name: str, fullname: str, icon: str, host: str, port: int };
const keysOf = <P extends object>(properties: P) => Object.keys(properties) as Keys<P>;

/** Response bodies, with the fields and types docs/http-interface.md gives each route. */
export const SCHEMAS = {
  ErrorBody: closed({ code: { type: "string", enum: ERROR_CODES }, message: str }),
  Error: closed({ error: ref("ErrorBody") }),
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
    [...keysOf(CLUSTER_FIELDS), "docker"],
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
      docker: { type: "object" },
      engine: obj({ name: str, version: str }),
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
        Config: { type: ["array", "null"], items: obj({ Subnet: str, Gateway: str }, []) },
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
  VolumeList: closed({ Volumes: arrayOf(ref("Volume")) }),
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
  LogLine: closed({
    stream: { type: "string", enum: ["stdout", "stderr"] },
    time: nullable("string"),
    text: str,
  }),
  LogLines: closed({ lines: arrayOf(ref("LogLine")) }),
  AttachLine: closed({ stream: { type: "string", enum: ["stdout", "stderr"] }, text: str }),
  Processes: closed({ Titles: arrayOf(str), Processes: arrayOf(arrayOf(str)) }),
  StatsSample: closed({
    summary: ref("StatsSummary"),
    raw: { type: "object", description: "The engine's stats body" },
  }),
  /** The figures `docker stats` shows, in one container's sample and in `/stats`' rounds. */
  StatsSummary: closed(
    counts([
      "cpuPercent",
      "memoryUsage",
      "memoryLimit",
      "memoryPercent",
      "netRx",
      "netTx",
      "blockRead",
      "blockWrite",
      "pids",
    ]),
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
  ImageList: closed({ images: arrayOf(ref("Image")) }),
  ClusterRef: closed({ id: int, name: str }),
  ClusterError: closed({ cluster: ref("ClusterRef"), error: ref("ErrorBody") }),
  AllContainerList: closed({
    containers: arrayOf(inCluster("Container")),
    running: arrayOf(inCluster("Container")),
    errors: arrayOf(ref("ClusterError")),
  }),
  AllImageList: closed({
    images: arrayOf(inCluster("Image")),
    errors: arrayOf(ref("ClusterError")),
  }),
  Drift: closed({
    images: arrayOf(
      closed({
        reference: str,
        clusters: arrayOf(closed({ cluster: ref("ClusterRef"), imageIds: arrayOf(str) })),
        drift: bool,
      }),
    ),
    engines: arrayOf(closed({ cluster: ref("ClusterRef"), version: str })),
    errors: arrayOf(ref("ClusterError")),
  }),
  OpenApi: { type: "object", description: "This document" },
  Metrics: { type: "string", description: "Prometheus text exposition format 0.0.4" },
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
      obj({ cluster: ref("ClusterRef"), Type: str, Action: str, time: int, timeNano: int }, [
        "cluster",
        "Type",
        "Action",
      ]),
      closed({ error: ref("ErrorBody") }),
    ],
  },
} as const satisfies Record<string, Schema>;

const container = closed({ id: str, name: str });
/** A cluster, or (with `container`) a container, that could not be read. */
const selectionError = closed({ cluster: ref("ClusterRef"), container, error: ref("ErrorBody") }, [
  "cluster",
  "error",
]);
const mergedLine = closed({
  cluster: ref("ClusterRef"),
  container,
  stream: { type: "string", enum: ["stdout", "stderr"] },
  time: nullable("string"),
  text: str,
});
const summaryRow = closed({
  type: { type: "string", enum: ["Images", "Containers", "Local Volumes", "Build Cache"] },
  total: int,
  active: int,
  ...counts(["size", "reclaimable"]),
});

const diskUsage = {
  summary: arrayOf(summaryRow),
  raw: { type: "object", description: "The engine's GET /system/df body" },
} as const;

/** The bodies of the many-container routes (selection.ts), which their routes name for the document. */
export const SELECTION_SCHEMAS = {
  DiskUsage: closed(diskUsage),
  AllDiskUsage: closed({
    clusters: arrayOf(closed({ cluster: ref("ClusterRef"), ...diskUsage })),
    errors: arrayOf(ref("ClusterError")),
  }),
  MergedLogLine: mergedLine,
  MergedLogLines: closed({ lines: arrayOf(mergedLine), errors: arrayOf(selectionError) }),
  MergedLogItem: {
    oneOf: [
      mergedLine,
      closed(
        {
          cluster: ref("ClusterRef"),
          container,
          status: {
            type: "string",
            enum: [
              "started",
              "stopped",
              "joined",
              "failed",
              "retrying",
              "disconnected",
              "reconnected",
            ],
          },
          time: str,
          error: ref("ErrorBody"),
        },
        ["cluster", "status", "time"],
      ),
      closed({ error: ref("ErrorBody") }),
    ],
  },
  AllStats: closed({
    stats: arrayOf(
      closed({
        cluster: ref("ClusterRef"),
        container,
        summary: ref("StatsSummary"),
      }),
    ),
    errors: arrayOf(selectionError),
  }),
} as const;

/** The lines of `/list/containers?watch=true` (watch.ts), which its route names for the document. */
export const WATCH_SCHEMAS = {
  ContainerWatchLine: {
    oneOf: [
      closed({
        type: { const: "snapshot" },
        cluster: ref("ClusterRef"),
        containers: arrayOf(ref("Container")),
      }),
      closed({
        type: { type: "string", enum: ["added", "modified"] },
        cluster: ref("ClusterRef"),
        container: ref("Container"),
      }),
      closed({ type: { const: "removed" }, cluster: ref("ClusterRef"), id: str }),
      closed({ type: { const: "waiting" }, cluster: ref("ClusterRef") }),
      closed({ type: { const: "down" }, cluster: ref("ClusterRef"), error: ref("ErrorBody") }),
      closed({ error: ref("ErrorBody") }),
    ],
  },
} as const;

const alert = closed(
  {
    id: {
      type: "string",
      description: "A stable fingerprint of rule, cluster, container and subject",
    },
    rule: str,
    when: { type: "string", enum: ALERT_TRIGGERS },
    state: { type: "string", enum: ["firing", "resolved"] },
    cluster: { oneOf: [ref("ClusterRef"), { type: "null" }] },
    container: { oneOf: [closed({ id: str, name: str }), { type: "null" }] },
    cause: str,
    value: { type: ["number", "string"] },
    startsAt: str,
    endsAt: str,
    link: str,
  },
  ["id", "rule", "when", "state", "cluster", "container", "cause", "startsAt", "link"],
);

/** The body of `GET /alerts`. */
export const ALERTS_SCHEMAS = { Alerts: closed({ alerts: arrayOf(alert) }) } as const;
