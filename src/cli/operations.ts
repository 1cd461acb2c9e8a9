// The core operations the commands call: not the library entry (src/index.ts), which also loads
// the config schema's parts the CLI never needs.
import { attachContainer } from "../core/attach.ts";
import { describeConfig, inspectCluster, listClusters } from "../core/clusters.ts";
import { inspectContainer, listAllContainers, listContainers } from "../core/containers.ts";
import { listDrift } from "../core/drift.ts";
import { streamEvents } from "../core/events.ts";
import { parseFilters } from "../core/filters.ts";
import { parseTime } from "../core/query.ts";
import { inspectImage, listAllImages, listImages } from "../core/images.ts";
import { followContainerLogs, parseLogsQuery, readContainerLogs } from "../core/logs.ts";
import { inspectNetwork, listNetworks } from "../core/networks.ts";
import { listProcesses } from "../core/processes.ts";
import { listDetailRoutes } from "../core/detail-routes.ts";
import { resolveClusters } from "../core/fleet.ts";
import { readContainerStats, streamContainerStats } from "../core/stats.ts";
import { inspectVolume, listVolumes } from "../core/volumes.ts";

/** What a command's core call is given. */
export const core = {
  attachContainer,
  describeConfig,
  followContainerLogs,
  inspectCluster,
  inspectContainer,
  inspectImage,
  inspectNetwork,
  inspectVolume,
  listAllContainers,
  listAllImages,
  listClusters,
  listContainers,
  listDrift,
  listImages,
  listDetailRoutes,
  listNetworks,
  listProcesses,
  listVolumes,
  parseFilters,
  parseLogsQuery,
  parseTime,
  resolveClusters,
  streamEvents,
  readContainerLogs,
  readContainerStats,
  streamContainerStats,
};

/** The core operations, as a command's call receives them. */
export type Core = typeof core;
