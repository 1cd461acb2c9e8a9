// The engine bodies docklens returns, in its own declarations: the Docker Engine API's shapes
// (v1.41 and later, and Podman's compatible API) as docklens hands them on, after the changes it
// makes (docs/http-interface.md, "List routes" and "Detail routes"). Only what docklens, its CLI
// and most users read is typed; an engine sends more, kept in each body as it came, which the
// index signatures (`unknown`) let through. A field an engine may leave out is optional; one it
// may send as null says so.

import type { HealthConfig } from "../containers/container-types.ts";

/**
 * An item of `/list/:cluster/images`: the engine's item of `GET /images/json`, with `Created` as
 * an ISO 8601 string and `Containers` counted by docklens (the engine says -1: it does not count).
 */
export interface ImageItem {
  /** `sha256:` and 64 hex digits. */
  Id: string;
  ParentId: string;
  /** `repository:tag` references; null or `["<none>:<none>"]` for an untagged image. */
  RepoTags: string[] | null;
  RepoDigests: string[] | null;
  /** When it was built, ISO 8601 UTC. */
  Created: string;
  /** Bytes. */
  Size: number;
  /** Bytes shared with other images; -1 when the engine did not count them. */
  SharedSize: number;
  /** Bytes; engines before API 1.44 only. */
  VirtualSize?: number;
  Labels: Record<string, string> | null;
  /** The containers that use it, stopped ones too. */
  Containers: number;
  [key: string]: unknown;
}

/** The `Config` of an image's inspect body: what a container of it starts with. */
export interface ImageConfig {
  User?: string;
  ExposedPorts?: Record<string, object> | null;
  Env?: string[] | null;
  Cmd?: string[] | null;
  Healthcheck?: HealthConfig;
  Volumes?: Record<string, object> | null;
  WorkingDir?: string;
  Entrypoint?: string[] | null;
  OnBuild?: string[] | null;
  Labels?: Record<string, string> | null;
  StopSignal?: string;
  Shell?: string[] | null;
  [key: string]: unknown;
}

/**
 * Body of `/detail/:cluster/image/:imageName`: the engine's inspect body of an image
 * (docs/http-interface.md, "GET /detail/:cluster/image/:imageName").
 */
export interface InspectImageResult {
  /** `sha256:` and 64 hex digits. */
  Id: string;
  RepoTags: string[] | null;
  RepoDigests: string[] | null;
  Parent?: string;
  Comment?: string;
  /** RFC 3339; engines of API 1.44 and later leave it out when the image does not say. */
  Created?: string;
  DockerVersion?: string;
  Author?: string;
  Config: ImageConfig | null;
  Architecture: string;
  Variant?: string;
  Os: string;
  OsVersion?: string;
  /** Bytes. */
  Size: number;
  /** Bytes; engines before API 1.44 only. */
  VirtualSize?: number;
  GraphDriver?: { Name: string; Data: Record<string, string> | null; [key: string]: unknown };
  RootFS?: { Type: string; Layers?: string[]; [key: string]: unknown };
  Metadata?: { LastTagTime?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** An address range of a network. */
export interface IPAMConfig {
  Subnet?: string;
  IPRange?: string;
  Gateway?: string;
  AuxiliaryAddresses?: Record<string, string> | null;
  [key: string]: unknown;
}

/** A container attached to a network, as the network's inspect body lists it. */
export interface NetworkContainer {
  /** The container's name, without a leading `/`. */
  Name: string;
  EndpointID: string;
  MacAddress: string;
  /** With its prefix length: `192.0.2.10/24`; empty when it has none. */
  IPv4Address: string;
  IPv6Address: string;
  [key: string]: unknown;
}

/**
 * A network, in `/list/:cluster/networks` and `/detail/:cluster/network/:networkName`: the
 * engine's body, unchanged (docs/http-interface.md, "GET /list/:cluster/networks").
 */
export interface NetworkItem {
  Name: string;
  Id: string;
  /** RFC 3339, as the engine sends it. */
  Created: string;
  /** `local`, `global` or `swarm`. */
  Scope: string;
  Driver: string;
  EnableIPv4?: boolean;
  EnableIPv6: boolean;
  IPAM: {
    Driver: string;
    Options: Record<string, string> | null;
    Config: IPAMConfig[] | null;
    [key: string]: unknown;
  };
  Internal: boolean;
  Attachable: boolean;
  Ingress: boolean;
  ConfigFrom: { Network: string; [key: string]: unknown };
  ConfigOnly: boolean;
  /** By container id; the list leaves it empty, the inspect body fills it in. */
  Containers: Record<string, NetworkContainer>;
  Options: Record<string, string>;
  Labels: Record<string, string>;
  [key: string]: unknown;
}

/**
 * A volume, in `/list/:cluster/volumes` and `/detail/:cluster/volume/:volumeName`: the engine's
 * body with `Labels` always an object and `CreatedAt` in UTC to the second
 * (docs/http-interface.md, "GET /list/:cluster/volumes").
 */
export interface VolumeItem {
  Name: string;
  Driver: string;
  Mountpoint: string;
  /** `2026-11-21T05:00:03Z`; absent when the engine does not say. */
  CreatedAt?: string;
  /** What the driver reports of it. */
  Status?: Record<string, unknown> | null;
  Labels: Record<string, string>;
  /** `local` or `global`. */
  Scope: string;
  /** The driver's options; null where the engine says null. */
  Options: Record<string, string> | null;
  /** Only where the engine computed it (`docker system df`). */
  UsageData?: { Size: number; RefCount: number; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/**
 * The engine's `GET /info` body plus `Volumes`, its number of volumes; `{}` when the engine
 * could not be asked (docs/http-interface.md, "Failing engines"). Every field is optional for
 * that reason.
 */
export interface DockerInfo {
  ID?: string;
  /** The engine host's name. */
  Name?: string;
  ServerVersion?: string;
  OperatingSystem?: string;
  OSVersion?: string;
  /** `linux` or `windows`. */
  OSType?: string;
  Architecture?: string;
  KernelVersion?: string;
  NCPU?: number;
  /** Bytes. */
  MemTotal?: number;
  Containers?: number;
  ContainersRunning?: number;
  ContainersPaused?: number;
  ContainersStopped?: number;
  Images?: number;
  /** Added by docklens: the engine's number of volumes. */
  Volumes?: number;
  /** The storage driver. */
  Driver?: string;
  DockerRootDir?: string;
  LoggingDriver?: string;
  CgroupDriver?: string;
  CgroupVersion?: string;
  DefaultRuntime?: string;
  /** RFC 3339, the engine host's clock. */
  SystemTime?: string;
  Labels?: string[] | null;
  SecurityOptions?: string[] | null;
  Warnings?: string[] | null;
  [key: string]: unknown;
}
