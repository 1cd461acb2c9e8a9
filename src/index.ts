/**
 * docklens: read-only inspection of many Docker engines. This entry is the core library that
 * the CLI and `docklens serve` are built on; it never prints, reads argv or exits.
 */
export { listClusters, inspectCluster } from "./core/clusters.ts";
export type {
  ClusterRecord,
  DockerInfo,
  InspectClusterResult,
  ListClustersResult,
} from "./core/clusters.ts";
export { loadConfig } from "./core/config.ts";
export type { LoadConfigOptions } from "./core/config.ts";
export { DEFAULT_TIMEOUT_MS } from "./core/cluster-config.ts";
export type { ClusterConfig, ClusterSource, DocklensConfig } from "./core/cluster-config.ts";
export { normalizeConfig } from "./core/config-schema.ts";
export type {
  ClusterConfigInput,
  DocklensConfigInput,
  EngineTuningInput,
  TokenInput,
} from "./core/config-schema.ts";
export { listContainers, inspectContainer, findContainer, redactEnv } from "./core/containers.ts";
export type {
  ContainerItem,
  ContainerTarget,
  ContainerRef,
  InspectContainerOptions,
  InspectContainerResult,
  ListContainersResult,
} from "./core/containers.ts";
export {
  readContainerLogs,
  followContainerLogs,
  parseLogsQuery,
  MAX_LOG_BYTES,
} from "./core/logs.ts";
export type { LogsOptions, LogsQuery, ReadLogsResult } from "./core/logs.ts";
export type { OutputLine } from "./core/container-output.ts";
export { readContainerStats, streamContainerStats, summarizeStats } from "./core/stats.ts";
export type { EngineStats, StatsSample, StatsSummary } from "./core/stats.ts";
export { listProcesses } from "./core/processes.ts";
export type { ListProcessesOptions, ListProcessesResult } from "./core/processes.ts";
export { attachContainer } from "./core/attach.ts";
export type { AttachLine } from "./core/attach.ts";
export { inspectImage } from "./core/images.ts";
export type { InspectImageResult } from "./core/images.ts";
export { countEngineStreams } from "./core/engine-stream.ts";
export type {
  ContainerConfig,
  ContainerHealth,
  ContainerNetworkSettings,
  ContainerState,
  EndpointSettings,
  HealthcheckResult,
  HealthConfig,
  HostConfig,
  MountPoint,
  Port,
  PortBinding,
} from "./core/container-types.ts";
export type {
  ImageConfig,
  ImageItem,
  IPAMConfig,
  NetworkContainer,
  NetworkItem,
} from "./core/engine-types.ts";
export { DocklensError, isDocklensError } from "./core/errors.ts";
export type { ErrorBody, ErrorCode } from "./core/errors.ts";
export { listNetworks, inspectNetwork } from "./core/networks.ts";
export type { ListNetworksResult } from "./core/networks.ts";
export { createFleet, loadFleet, resolveCluster } from "./core/fleet.ts";
export type { CoreOptions, ItemRef, Fleet } from "./core/fleet.ts";
export { listDetailRoutes, DETAIL_ROUTES } from "./core/detail-routes.ts";
export type { ListDetailRoutesResult, RouteInfo } from "./core/detail-routes.ts";
export { listVolumes, inspectVolume } from "./core/volumes.ts";
export type { ListVolumesResult, VolumeItem } from "./core/volumes.ts";
