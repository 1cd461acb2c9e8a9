// The body of a container's detail: the engine's inspect body as docklens hands it on
// (core/containers/container-types.ts), and the health check an image's config has too.
import {
  arrayOf,
  bool,
  int,
  mapOf,
  nullableStrings,
  obj,
  objOptional,
  orNull,
  ref,
  str,
  stringMap,
  type Schema,
} from "../schema.ts";

const portBindings = orNull(mapOf(orNull(arrayOf(obj({ HostIp: str, HostPort: str })))));

const state = objOptional(
  {
    Status: str,
    Running: bool,
    Paused: bool,
    Restarting: bool,
    OOMKilled: bool,
    Dead: bool,
    Pid: int,
    ExitCode: int,
    Error: str,
    StartedAt: str,
    FinishedAt: str,
    Health: obj({
      Status: str,
      FailingStreak: int,
      Log: orNull(arrayOf(obj({ Start: str, End: str, ExitCode: int, Output: str }))),
    }),
  },
  ["Health"],
);

/** What a container's config and its image's both say of how it starts. */
export const START_CONFIG = {
  User: str,
  ExposedPorts: orNull(mapOf({ type: "object" })),
  Env: nullableStrings,
  Cmd: nullableStrings,
  Healthcheck: ref("HealthConfig"),
  Volumes: orNull(mapOf({ type: "object" })),
  WorkingDir: str,
  Entrypoint: nullableStrings,
  OnBuild: nullableStrings,
  Labels: orNull(stringMap),
  StopSignal: str,
} as const;

const config = objOptional(
  {
    ...START_CONFIG,
    Hostname: str,
    Domainname: str,
    AttachStdin: bool,
    AttachStdout: bool,
    AttachStderr: bool,
    Tty: bool,
    OpenStdin: bool,
    StdinOnce: bool,
    Env: { ...nullableStrings, description: "Values whose names look secret read <redacted>" },
    Image: str,
    StopTimeout: int,
  },
  ["ExposedPorts", "Healthcheck", "OnBuild", "StopSignal", "StopTimeout"],
);

/** The commonly read part of it: each property may be absent. */
const hostConfig = obj(
  {
    NetworkMode: str,
    Binds: nullableStrings,
    PortBindings: portBindings,
    RestartPolicy: objOptional({ Name: str, MaximumRetryCount: int }, ["MaximumRetryCount"]),
    AutoRemove: bool,
    LogConfig: objOptional({ Type: str, Config: orNull(stringMap) }, ["Config"]),
    Privileged: bool,
    ReadonlyRootfs: bool,
    CapAdd: nullableStrings,
    CapDrop: nullableStrings,
    SecurityOpt: nullableStrings,
    Dns: nullableStrings,
    ExtraHosts: nullableStrings,
    PidMode: str,
    IpcMode: str,
    UsernsMode: str,
    Runtime: str,
    Memory: int,
    MemoryReservation: int,
    MemorySwap: int,
    NanoCpus: int,
    CpuShares: int,
    CpuPeriod: int,
    CpuQuota: int,
    CpusetCpus: str,
    PidsLimit: orNull(int),
    ShmSize: int,
  },
  [],
);

/** A container's inspect body. */
export const CONTAINER_DETAIL_SCHEMAS = {
  ContainerDetail: objOptional(
    {
      Id: str,
      Created: { type: "string", format: "date-time" },
      Path: str,
      Args: arrayOf(str),
      State: state,
      Image: str,
      ResolvConfPath: str,
      HostnamePath: str,
      HostsPath: str,
      LogPath: str,
      Name: str,
      RestartCount: int,
      Driver: str,
      Platform: str,
      MountLabel: str,
      ProcessLabel: str,
      AppArmorProfile: str,
      ExecIDs: nullableStrings,
      HostConfig: hostConfig,
      GraphDriver: obj({ Name: str, Data: orNull(stringMap) }),
      Mounts: arrayOf(ref("Mount")),
      Config: config,
      NetworkSettings: obj({
        SandboxID: str,
        SandboxKey: str,
        Ports: portBindings,
        Networks: mapOf(ref("Endpoint")),
      }),
      SizeRw: int,
      SizeRootFs: int,
    },
    ["SizeRw", "SizeRootFs"],
  ),
  /** A health check, as a container or an image configures it. */
  HealthConfig: obj(
    {
      Test: nullableStrings,
      Interval: { type: "integer", description: "Nanoseconds, as Timeout and StartPeriod" },
      Timeout: int,
      StartPeriod: int,
      Retries: int,
    },
    [],
  ),
} as const satisfies Record<string, Schema>;
