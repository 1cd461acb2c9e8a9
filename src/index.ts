/**
 * docklens: read-only inspection of many Docker engines. This entry is the core library that
 * the CLI and `docklens serve` are built on; it never prints, reads argv or exits.
 */
export { listClusters, inspectCluster } from "./core/clusters/clusters.ts";
export type {
  ClusterRecord,
  DockerInfo,
  InspectClusterResult,
  ListClustersResult,
} from "./core/clusters/clusters.ts";
export { loadConfig } from "./core/config/config.ts";
export type { LoadConfigOptions } from "./core/config/config.ts";
export { DEFAULT_TIMEOUT_MS } from "./core/config/cluster-config.ts";
export type { ClusterConfig, ClusterSource, DocklensConfig } from "./core/config/cluster-config.ts";
export { normalizeConfig } from "./core/config/config-schema.ts";
export type {
  ClusterConfigInput,
  DocklensConfigInput,
  EngineTuningInput,
  TokenInput,
} from "./core/config/config-schema.ts";
export {
  listContainers,
  inspectContainer,
  findContainer,
  redactEnv,
} from "./core/containers/containers.ts";
export type {
  ContainerItem,
  ContainerTarget,
  ContainerRef,
  InspectContainerOptions,
  InspectContainerResult,
  ListContainersResult,
} from "./core/containers/containers.ts";
export {
  readContainerLogs,
  followContainerLogs,
  parseLogsQuery,
  MAX_LOG_BYTES,
} from "./core/containers/logs.ts";
export type { LogsOptions, LogsQuery, ReadLogsResult } from "./core/containers/logs.ts";
export type { OutputLine } from "./core/containers/container-output.ts";
export {
  readContainerStats,
  streamContainerStats,
  summarizeStats,
} from "./core/containers/stats.ts";
export type { EngineStats, StatsSample, StatsSummary } from "./core/containers/stats.ts";
export { listProcesses } from "./core/containers/processes.ts";
export type { ListProcessesOptions, ListProcessesResult } from "./core/containers/processes.ts";
export { attachContainer } from "./core/containers/attach.ts";
export type { AttachLine } from "./core/containers/attach.ts";
export { inspectImage } from "./core/objects/images.ts";
export type { InspectImageResult } from "./core/objects/images.ts";
export { countEngineStreams } from "./core/engine/engine-stream.ts";
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
} from "./core/containers/container-types.ts";
export type {
  ImageConfig,
  ImageItem,
  IPAMConfig,
  NetworkContainer,
  NetworkItem,
} from "./core/objects/engine-types.ts";
export { DocklensError, isDocklensError } from "./core/errors.ts";
export type { ErrorBody, ErrorCode } from "./core/errors.ts";
export { listNetworks, inspectNetwork } from "./core/objects/networks.ts";
export type { ListNetworksResult } from "./core/objects/networks.ts";
export { createFleet, loadFleet, resolveCluster } from "./core/engine/fleet.ts";
export type { CoreOptions, ItemRef, Fleet } from "./core/engine/fleet.ts";
export { listDetailRoutes, DETAIL_ROUTES } from "./core/detail-routes.ts";
export type { ListDetailRoutesResult, RouteInfo } from "./core/detail-routes.ts";
export { listVolumes, inspectVolume } from "./core/objects/volumes.ts";
export type { ListVolumesResult, VolumeItem } from "./core/objects/volumes.ts";
export { selectContainers, MAX_SELECTION } from "./core/containers/selection.ts";
export type {
  Selection,
  SelectContainersOptions,
  SelectContainersResult,
  SelectedContainer,
  SelectionError,
} from "./core/containers/selection.ts";
export { readAllStats, streamAllStats } from "./core/containers/all-stats.ts";
export type {
  AllStatsOptions,
  AllStatsResult,
  ContainerStatsItem,
} from "./core/containers/all-stats.ts";
export { readMergedLogs, parseMergedLogsQuery } from "./core/containers/merged-logs.ts";
export type {
  MergedLogLine,
  MergedLogsOptions,
  MergedLogsQuery,
  ReadMergedLogsResult,
} from "./core/containers/merged-logs.ts";
export { followMergedLogs } from "./core/containers/follow-merged-logs.ts";
export type {
  FollowMergedLogsOptions,
  LogStatusLine,
} from "./core/containers/follow-merged-logs.ts";
export {
  readDiskUsage,
  readAllDiskUsage,
  parseDiskUsageTypes,
  DISK_USAGE_TYPES,
} from "./core/clusters/disk-usage.ts";
export type {
  AllDiskUsageResult,
  ClusterDiskUsage,
  DiskUsageOptions,
  DiskUsageResult,
  DiskUsageSummary,
  DiskUsageType,
  EngineDiskUsage,
} from "./core/clusters/disk-usage.ts";
