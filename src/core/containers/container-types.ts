// The container bodies docklens returns, in its own declarations: the list item and the inspect
// body, as the Docker Engine API (v1.41 and later, and Podman's compatible API) shapes them and
// docklens hands them on. The rules of engine-types.ts hold here too: what is commonly read is
// typed, the rest passes through the index signatures.

/** A published or exposed port of a container list item. */
export interface Port {
  /** The host address it is published on; absent when only exposed. */
  IP?: string;
  PrivatePort: number;
  /** The host port; absent when only exposed. */
  PublicPort?: number;
  /** `tcp`, `udp` or `sctp`. */
  Type: string;
  [key: string]: unknown;
}

/** A mount of a container, in its list item and its inspect body. */
export interface MountPoint {
  /** `bind`, `volume`, `image`, `tmpfs`, `npipe` or `cluster`. */
  Type: string;
  /** The volume's name, for a volume. */
  Name?: string;
  Source: string;
  Destination: string;
  /** The volume driver, for a volume. */
  Driver?: string;
  Mode: string;
  RW: boolean;
  Propagation: string;
  [key: string]: unknown;
}

/** A container's attachment to one network. */
export interface EndpointSettings {
  IPAMConfig?: {
    IPv4Address?: string;
    IPv6Address?: string;
    LinkLocalIPs?: string[] | null;
    [key: string]: unknown;
  } | null;
  Links?: string[] | null;
  Aliases?: string[] | null;
  /** Names the container is known by on the network (API 1.44 and later). */
  DNSNames?: string[] | null;
  NetworkID: string;
  EndpointID: string;
  Gateway: string;
  /** Empty when the container does not run. */
  IPAddress: string;
  IPPrefixLen: number;
  IPv6Gateway: string;
  GlobalIPv6Address: string;
  GlobalIPv6PrefixLen: number;
  MacAddress: string;
  DriverOpts?: Record<string, string> | null;
  [key: string]: unknown;
}

/**
 * An item of `/list/:cluster/containers`: the engine's item of `GET /containers/json`, with
 * `Created` as an ISO 8601 string and Podman's answers brought to Docker's shape
 * (docs/http-interface.md, "GET /list/:cluster/containers").
 */
export interface ContainerItem {
  /** The full id, 64 hex digits. */
  Id: string;
  /** Its names, each starting with `/`: `/web`. */
  Names: string[];
  /** The image as the container was created from it: a reference, or an image id. */
  Image: string;
  ImageID: string;
  Command: string;
  /** When it was created, ISO 8601 UTC: `2026-11-21T05:00:03.000Z`. */
  Created: string;
  Ports: Port[];
  Labels: Record<string, string>;
  /** `created`, `running`, `paused`, `restarting`, `removing`, `exited` or `dead`. */
  State: string;
  /** As `docker ps` words it: `Up 3 minutes (healthy)`, `Exited (0) 2 hours ago`. */
  Status: string;
  HostConfig: { NetworkMode: string; [key: string]: unknown };
  NetworkSettings: { Networks: Record<string, EndpointSettings>; [key: string]: unknown };
  Mounts: MountPoint[];
  /** With the engine's `size` option only. */
  SizeRw?: number;
  SizeRootFs?: number;
  [key: string]: unknown;
}

/** One run of a container's health check. */
export interface HealthcheckResult {
  Start: string;
  End: string;
  ExitCode: number;
  Output: string;
  [key: string]: unknown;
}

/** The health of a container that has a health check. */
export interface ContainerHealth {
  /** `none`, `starting`, `healthy` or `unhealthy`. */
  Status: string;
  FailingStreak: number;
  /** The last runs, oldest first. */
  Log: HealthcheckResult[] | null;
  [key: string]: unknown;
}

/** The `State` of a container's inspect body. */
export interface ContainerState {
  /** `created`, `running`, `paused`, `restarting`, `removing`, `exited` or `dead`. */
  Status: string;
  Running: boolean;
  Paused: boolean;
  Restarting: boolean;
  OOMKilled: boolean;
  Dead: boolean;
  Pid: number;
  ExitCode: number;
  Error: string;
  /** RFC 3339; `0001-01-01T00:00:00Z` when it never started. */
  StartedAt: string;
  /** RFC 3339; `0001-01-01T00:00:00Z` when it never stopped. */
  FinishedAt: string;
  /** Present when the container has a health check. */
  Health?: ContainerHealth;
  [key: string]: unknown;
}

/** A health check as a container or image configures it. */
export interface HealthConfig {
  /** `["NONE"]`, `["CMD", …]` or `["CMD-SHELL", "…"]`. */
  Test?: string[] | null;
  /** Nanoseconds. */
  Interval?: number;
  Timeout?: number;
  StartPeriod?: number;
  Retries?: number;
  [key: string]: unknown;
}

/** The `Config` of a container's inspect body: how it was created. */
export interface ContainerConfig {
  Hostname: string;
  Domainname: string;
  User: string;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  /** Keys such as `80/tcp`; values are empty objects. */
  ExposedPorts?: Record<string, object> | null;
  Tty: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  /**
   * `NAME=value` entries; values whose names look secret read `<redacted>` unless secrets are
   * shown (docs/http-interface.md, "Secrets").
   */
  Env: string[] | null;
  Cmd: string[] | null;
  Healthcheck?: HealthConfig;
  Image: string;
  Volumes: Record<string, object> | null;
  WorkingDir: string;
  Entrypoint: string[] | null;
  OnBuild?: string[] | null;
  Labels: Record<string, string> | null;
  StopSignal?: string;
  StopTimeout?: number;
  [key: string]: unknown;
}

/** A host port a container port is published on. */
export interface PortBinding {
  HostIp: string;
  HostPort: string;
  [key: string]: unknown;
}

/** The `HostConfig` of a container's inspect body: the commonly read part of it. */
export interface HostConfig {
  NetworkMode?: string;
  Binds?: string[] | null;
  /** Keys such as `80/tcp`. */
  PortBindings?: Record<string, PortBinding[] | null> | null;
  RestartPolicy?: { Name: string; MaximumRetryCount?: number; [key: string]: unknown };
  AutoRemove?: boolean;
  LogConfig?: { Type: string; Config?: Record<string, string> | null; [key: string]: unknown };
  Privileged?: boolean;
  ReadonlyRootfs?: boolean;
  CapAdd?: string[] | null;
  CapDrop?: string[] | null;
  SecurityOpt?: string[] | null;
  Dns?: string[] | null;
  ExtraHosts?: string[] | null;
  PidMode?: string;
  IpcMode?: string;
  UsernsMode?: string;
  Runtime?: string;
  /** Bytes; 0 for no limit. */
  Memory?: number;
  MemoryReservation?: number;
  MemorySwap?: number;
  /** CPUs in billionths. */
  NanoCpus?: number;
  CpuShares?: number;
  CpuPeriod?: number;
  CpuQuota?: number;
  CpusetCpus?: string;
  PidsLimit?: number | null;
  ShmSize?: number;
  [key: string]: unknown;
}

/** The `NetworkSettings` of a container's inspect body. */
export interface ContainerNetworkSettings {
  SandboxID: string;
  SandboxKey: string;
  /** Keys such as `80/tcp`; null for a port exposed and not published. */
  Ports: Record<string, PortBinding[] | null> | null;
  Networks: Record<string, EndpointSettings>;
  [key: string]: unknown;
}

/**
 * Body of `/detail/:cluster/container/:containerName`: the engine's inspect body of a container
 * (docs/http-interface.md, "GET /detail/:cluster/container/:containerName").
 */
export interface InspectContainerResult {
  Id: string;
  /** RFC 3339, as the engine sends it. */
  Created: string;
  Path: string;
  Args: string[];
  State: ContainerState;
  /** The image id. */
  Image: string;
  ResolvConfPath: string;
  HostnamePath: string;
  HostsPath: string;
  LogPath: string;
  /** Its name, starting with `/`. */
  Name: string;
  RestartCount: number;
  Driver: string;
  Platform: string;
  MountLabel: string;
  ProcessLabel: string;
  AppArmorProfile: string;
  ExecIDs: string[] | null;
  HostConfig: HostConfig;
  GraphDriver: { Name: string; Data: Record<string, string> | null; [key: string]: unknown };
  Mounts: MountPoint[];
  Config: ContainerConfig;
  NetworkSettings: ContainerNetworkSettings;
  /** With the engine's `size` option only. */
  SizeRw?: number;
  SizeRootFs?: number;
  [key: string]: unknown;
}
