// The bodies the page reads, described by the core's own declarations where it exports them:
// one declaration per body, shared with the server. Only types come from the core, never code.
import type { ContainerItem, ErrorBody, ImageItem } from "../index.ts";

export type {
  ClusterRecord,
  ContainerItem,
  ErrorBody,
  ImageItem,
  InspectContainerResult,
  ListClustersResult,
  ListNetworksResult,
  ListProcessesResult,
  ListVolumesResult,
  NetworkItem,
  OutputLine,
  StatsSample,
  VolumeItem,
} from "../index.ts";

/** A cluster as the across-cluster routes name it. */
export interface ClusterRef {
  id: number;
  name: string;
}

/** A cluster that failed in an across-cluster body. */
export interface ClusterError {
  cluster: ClusterRef;
  error: ErrorBody;
}

/** `/list/containers` (docs/http-interface.md, "GET /list/containers"). */
export interface AllContainers {
  containers: Array<ContainerItem & { cluster: ClusterRef }>;
  running: Array<ContainerItem & { cluster: ClusterRef }>;
  errors: ClusterError[];
}

/** `/list/:cluster/containers`. */
export interface ClusterContainers {
  containers: ContainerItem[];
  running: ContainerItem[];
}

/** `/list/:cluster/images`. */
export interface ClusterImages {
  images: ImageItem[];
}

/** `/list/drift` (docs/http-interface.md, "GET /list/drift"). */
export interface Drift {
  images: Array<{
    reference: string;
    clusters: Array<{ cluster: ClusterRef; imageIds: string[] }>;
    drift: boolean;
  }>;
  engines: Array<{ cluster: ClusterRef; version: string }>;
  errors: ClusterError[];
}

/** A line of `/events`: an engine event, a cluster's status line, or the stream's last error. */
export interface EventLine {
  cluster?: ClusterRef;
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  status?: "disconnected" | "reconnected";
  error?: ErrorBody;
}
