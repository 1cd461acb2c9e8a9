// The bodies the page reads, described by the core's own declarations where it exports them:
// one declaration per body, shared with the server. Only types come from the core, never code.
import type {
  ClusterRef,
  ErrorBody,
  ListAllContainersResult,
  ListContainersResult,
  ListDriftResult,
  ListImagesResult,
} from "../index.ts";

export type {
  ClusterError,
  ClusterRecord,
  ClusterRef,
  ContainerItem,
  ContainerWatchLine,
  ErrorBody,
  ImageItem,
  InspectClusterResult,
  InspectContainerResult,
  ListClustersResult,
  LogStatusLine,
  MergedLogLine,
  SelectionCount,
  SelectionLine,
  AllStatsResult,
  ContainerStatsItem,
  AllDiskUsageResult,
  DiskUsageResult,
  DiskUsageSummary,
  ListNetworksResult,
  ListProcessesResult,
  ListVolumesResult,
  NetworkItem,
  OutputLine,
  StatsSample,
  VolumeItem,
} from "../index.ts";

/** `/list/containers` (docs/http-interface.md, "GET /list/containers"). */
export type AllContainers = ListAllContainersResult;

/** `/list/:cluster/containers`. */
export type ClusterContainers = ListContainersResult;

/** `/list/:cluster/images`. */
export type ClusterImages = ListImagesResult;

/** `/list/drift` (docs/http-interface.md, "GET /list/drift"). */
export type Drift = ListDriftResult;

/** A line of `/events`: an engine event, a cluster's status line, or the stream's last error. */
export interface EventLine {
  cluster?: ClusterRef;
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  status?: "disconnected" | "reconnected" | "truncated";
  /** Of `truncated`: Unix seconds of the oldest event the engine still keeps. */
  oldest?: number;
  error?: ErrorBody;
}

/** An alert of `GET /alerts`, and the body: firing, or resolved a short while ago. */
export type { Alert as AlertItem, ListAlertsResult as AlertsBody } from "../index.ts";

/** The bodies of `/history/*` (docs/guide/history.md): what serve recorded, removed containers too. */
export type {
  HistoryContainer,
  HistoryContainersResult,
  HistoryEventsResult,
  HistoryLogLine,
  HistoryLogsResult,
  HistoryStatsResult,
} from "../index.ts";
