/**
 * docklens: read-only inspection of many Docker engines. This entry is the core library that
 * the CLI and `docklens serve` are built on; it never prints, reads argv or exits. It is the one
 * list of the operations (each route of the HTTP interface is one of them) and of their body
 * types: a dashboard or any other client imports its types from here only.
 */

// The clusters and their engine connections, which every operation is given.
export { createFleet, loadFleet, resolveCluster } from "./core/engine/fleet.ts";
export type { CoreOptions, ItemRef, Fleet } from "./core/engine/fleet.ts";
export type {
  AcrossClustersOptions,
  ClusterError,
  ClusterRef,
} from "./core/engine/across-clusters.ts";
export { DocklensError, isDocklensError } from "./core/errors.ts";
export type { ErrorBody, ErrorCode } from "./core/errors.ts";

// The config: loaded, checked, described (`/list/cluster`'s clusters come from it).
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

// What the engines say of themselves: `/list/cluster`, `/detail/cluster/:clusterid`, `/events`.
export { listClusters, inspectCluster, describeConfig } from "./core/clusters/clusters.ts";
export type {
  ClusterRecord,
  DescribeConfigResult,
  DockerInfo,
  EngineName,
  InspectClusterResult,
  ListClustersResult,
} from "./core/clusters/clusters.ts";
export { streamEvents } from "./core/clusters/events.ts";
export type { ClusterEvent, EventStatus, StreamEventsOptions } from "./core/clusters/events.ts";

// Docker's filters, as the list operations take them.
export { parseFilters } from "./core/engine/filters.ts";
export type { EngineFilters, FilterKind, ListOptions } from "./core/engine/filters.ts";

// Containers: `/list/:cluster/containers`, `/list/containers`, `/detail/:cluster/container/…`.
export {
  listContainers,
  listAllContainers,
  inspectContainer,
  findContainer,
  psDefault,
  redactEnv,
} from "./core/containers/containers.ts";
export type {
  ClusterContainerItem,
  ContainerItem,
  ContainerTarget,
  ContainerRef,
  InspectContainerOptions,
  InspectContainerResult,
  ListAllContainersResult,
  ListContainersResult,
} from "./core/containers/containers.ts";
// `/list/containers?watch=true`: a snapshot of each cluster's list, then its changes.
export { watchContainers } from "./core/containers/container-watch.ts";
export type {
  ContainerWatchLine,
  WatchContainersOptions,
} from "./core/containers/container-watch.ts";
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
export {
  readContainerLogs,
  followContainerLogs,
  LOGS_DEFAULTS,
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

// Images, networks, volumes, and drift: `/list/…` and `/detail/:cluster/{image,network,volume}/…`.
export { listImages, listAllImages, inspectImage } from "./core/objects/images.ts";
export type {
  ClusterImageItem,
  InspectImageResult,
  ListAllImagesResult,
  ListImagesResult,
} from "./core/objects/images.ts";
export type {
  ImageConfig,
  ImageItem,
  IPAMConfig,
  NetworkContainer,
  NetworkItem,
} from "./core/objects/engine-types.ts";
export { listNetworks, inspectNetwork } from "./core/objects/networks.ts";
export type { ListNetworksResult } from "./core/objects/networks.ts";
export { listVolumes, inspectVolume } from "./core/objects/volumes.ts";
export type { ListVolumesResult, VolumeItem } from "./core/objects/volumes.ts";
export { listDrift } from "./core/objects/drift.ts";
export type { DriftImage, ListDriftResult } from "./core/objects/drift.ts";

// Many containers at once, chosen by a selection: `/logs`, `/stats`; and disk usage, `/list/…/df`.
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
export { readMergedLogs, MERGED_LOGS_DEFAULTS } from "./core/containers/merged-logs.ts";
export type {
  MergedLogLine,
  MergedLogsOptions,
  MergedLogsQuery,
  ReadMergedLogsResult,
  SelectionCount,
} from "./core/containers/merged-logs.ts";
export { followMergedLogs } from "./core/containers/follow-merged-logs.ts";
export type {
  FollowMergedLogsOptions,
  LogStatusLine,
  MergedLogsStream,
  SelectionLine,
} from "./core/containers/follow-merged-logs.ts";
export { readDiskUsage, readAllDiskUsage, DISK_USAGE_TYPES } from "./core/clusters/disk-usage.ts";
export type {
  AllDiskUsageResult,
  ClusterDiskUsage,
  DiskUsageOptions,
  DiskUsageResult,
  DiskUsageSummary,
  DiskUsageType,
  EngineDiskUsage,
} from "./core/clusters/disk-usage.ts";

// Alerts (docs/guide/alerts.md): the config's rules on a live fleet, and the body of `/alerts`.
export { startAlerts, listAlerts } from "./core/alerts/alerts.ts";
export type { AlertsService, ListAlertsResult, StartAlertsOptions } from "./core/alerts/alerts.ts";
export type { Alert } from "./core/alerts/alert-book.ts";

// The body of `/detail`, the index of the detail routes (the server makes it from its routes).
export type { ListDetailRoutesResult, RouteInfo } from "./core/detail-routes.ts";

// History (D26): what serve records of its clusters, and the bodies of `/history/*`.
export { startHistory } from "./core/history/history.ts";
export type { HistoryService, StartHistoryOptions } from "./core/history/history.ts";
export {
  listHistoryContainers,
  readHistoryEvents,
  readHistoryLogs,
  readHistoryStats,
} from "./core/history/history-reads.ts";
export type {
  HistoryContainer,
  HistoryContainersResult,
  HistoryEventsResult,
  HistoryLogLine,
  HistoryLogsResult,
  HistoryReadOptions,
  HistoryStatsResult,
} from "./core/history/history-reads.ts";
export { compileGrep } from "./core/containers/grep.ts";
export type { LineTest } from "./core/containers/grep.ts";
export { openSqliteStore } from "./core/history/sqlite-store.ts";
export type { SqliteStoreOptions } from "./core/history/sqlite-store.ts";
export type { HistoryStore } from "./core/history/store.ts";
