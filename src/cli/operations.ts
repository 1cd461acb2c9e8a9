// The core operations the commands call: not the library entry (src/index.ts), which also loads
// the config schema's parts the CLI never needs.
import { attachContainer } from "../core/containers/attach.ts";
import { describeConfig, inspectCluster, listClusters } from "../core/clusters/clusters.ts";
import {
  inspectContainer,
  listAllContainers,
  listContainers,
} from "../core/containers/containers.ts";
import { listDrift } from "../core/objects/drift.ts";
import { streamEvents } from "../core/clusters/events.ts";
import { parseFilters } from "../core/engine/filters.ts";
import { parseTime } from "../core/query.ts";
import { inspectImage, listAllImages, listImages } from "../core/objects/images.ts";
import { followContainerLogs, parseLogsQuery, readContainerLogs } from "../core/containers/logs.ts";
import { inspectNetwork, listNetworks } from "../core/objects/networks.ts";
import { listProcesses } from "../core/containers/processes.ts";
import { resolveClusters } from "../core/engine/fleet.ts";
import { readContainerStats, streamContainerStats } from "../core/containers/stats.ts";
import { inspectVolume, listVolumes } from "../core/objects/volumes.ts";

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
  // The index is the server's routes below /detail/, loaded only for `docklens detail`.
  listDetailRoutes: async () => (await import("../server/routes.ts")).detailRoutes(),
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
